import type { DomainContext } from "../../context.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import { notFound } from "../../../core/errors.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
import { readEntitlement } from "../entitlement/entitlement-response.ts";
import { lockEditableEntitlement } from "../entitlement/entitlement-lock.ts";
import type { TAssignPlanRequest } from "./plan-change.schemas.ts";
import { recordPlanChange, toPlanHistoryEntry } from "./plan-history.ts";
import { resolvePlan } from "./plan-lookup.ts";

/**
 * PUT /admin/entitlements/{id}/plan: assigns a plan of a Published plan-set revision and writes a
 * plan-assignment history entry (docs/api.md: changedAt, previous and new plan set and plan, source).
 * Assigning the plan it already has changes nothing and writes no entry.
 */
export async function assignPlan(ctx: DomainContext, id: string, input: TAssignPlanRequest) {
  return inTransaction(ctx.db, async (tx) => {
    const current = await lockEditableEntitlement(tx, ctx.tenantId, id);
    const plan = await resolvePlan(tx, input.planSetId, input.planName, { requirePublished: true });
    if (current.planSetId !== plan.planSetId || current.planName !== plan.planName) {
      const previous =
        current.planSetId && current.planName
          ? { planSetId: current.planSetId, planName: current.planName }
          : null;
      await recordPlanChange(tx, ctx.tenantId, id, { previous, next: plan, source: input.source });
    }
    return (await readEntitlement(tx, id))!;
  });
}

export const planHistorySieve: SieveWhitelist = {
  changedAt: { type: "date" },
  source: { type: "string" },
  newPlanName: { type: "string" },
  newPlanSetId: { type: "uuid", sortable: false },
  previousPlanName: { type: "string", nullable: true },
};

/** GET /admin/entitlements/{id}/plan-history: oldest first unless sorted. */
export async function listPlanHistory(ctx: DomainContext, id: string, query: TListQuery) {
  if (!(await ctx.db.entitlement.findUnique({ where: { id }, select: { id: true } })))
    throw notFound("Entitlement");
  return listPage(
    query,
    {
      sieve: planHistorySieve,
      where: { entitlementId: id },
      defaultOrder: [{ changedAt: "asc" }],
      findMany: (args) => ctx.db.entitlementPlanHistory.findMany(args),
      count: (args) => ctx.db.entitlementPlanHistory.count(args),
    },
    (rows) => rows.map((h) => ({ id: h.id, entitlementId: h.entitlementId, ...toPlanHistoryEntry(h) })),
  );
}
