import type { TenantTx } from "../../db/tenant-db.ts";
import { now } from "../../clock.ts";

/** What triggered a plan assignment (SPEC.md "Plan-assignment history entry" source). */
export const planChangeSources = {
  issued: "Issued",
  admin: "ManualAdminAction",
  planChangeRequest: "ApprovedPlanChangeRequest",
} as const;

/** Writes one plan-assignment history entry and moves the entitlement to the new plan. */
export async function recordPlanChange(
  tx: TenantTx,
  tenantId: string,
  entitlementId: string,
  change: {
    previous: { planSetId: string; planName: string } | null;
    next: { planSetId: string; planName: string };
    source: string;
  },
): Promise<void> {
  await tx.entitlementPlanHistory.create({
    data: {
      tenantId,
      entitlementId,
      changedAt: now(),
      previousPlanSetId: change.previous?.planSetId ?? null,
      previousPlanName: change.previous?.planName ?? null,
      newPlanSetId: change.next.planSetId,
      newPlanName: change.next.planName,
      source: change.source,
    },
  });
  await tx.entitlement.update({ where: { id: entitlementId }, data: { planSetId: change.next.planSetId, planName: change.next.planName, revisionNumber: { increment: 1 } } });
}
