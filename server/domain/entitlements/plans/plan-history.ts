import type { TenantTx } from "../../../db/tenant-db.ts";
import type { EntitlementPlanHistory } from "../../../db/generated/client.ts";
import { now } from "../../../clock.ts";

/** A plan-assignment history entry as the entitlement and the plan-history list answer it. */
export const toPlanHistoryEntry = (h: EntitlementPlanHistory) => ({
  changedAt: h.changedAt.toISOString(),
  previousPlanSetId: h.previousPlanSetId,
  previousPlanName: h.previousPlanName,
  newPlanSetId: h.newPlanSetId,
  newPlanName: h.newPlanName,
  source: h.source,
});

/** What triggered a plan assignment (docs/api.md "Plan-assignment history entry" source). */
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
  await tx.entitlement.update({
    where: { id: entitlementId },
    data: {
      planSetId: change.next.planSetId,
      planName: change.next.planName,
      revisionNumber: { increment: 1 },
    },
  });
}
