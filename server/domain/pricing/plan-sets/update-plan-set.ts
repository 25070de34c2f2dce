import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { inTransaction, type TenantTx } from "../../../db/tenant-db.ts";
import type { TPlanSetStatus, TPlanSetUpdateRequest } from "./plan-set.schemas.ts";
import { lockSuite } from "../suites/suite-lock.ts";
import { preparePlans } from "./plan-set-plans.ts";
import { createDraftRevision, deletePlans, readPlans, writePlans } from "./plan-set-store.ts";
import { readPlanSet } from "./plan-set-response.ts";

/** docs/api.md: an edit moves no status. It may repeat the revision's status, or say Draft for a published one. */
function refuseStatusChange(current: TPlanSetStatus, requested: TPlanSetStatus | null | undefined): void {
  if (requested == null || requested === current || (current === "Published" && requested === "Draft"))
    return;
  const detail =
    requested === "Archived"
      ? "A plan-set edit cannot archive the revision; archive it with PUT .../{planSetId}/status."
      : `A plan-set edit moves no status (${current} → ${requested}); use PUT .../{planSetId}/status.`;
  throw new AppError("plan_set.status_change_through_edit", detail);
}

/** A published revision's plans for its draft copy, without line items of products that have left the suite. */
async function copiedPlans(tx: TenantTx, planSetId: string, memberIds: readonly string[]) {
  const plans = (await readPlans(tx, [planSetId])).get(planSetId) ?? [];
  return plans.map((plan) => ({
    ...plan,
    lineItems: plan.lineItems.filter((item) => memberIds.includes(item.productId)),
  }));
}

/**
 * docs/api.md PUT /admin/usage-plans/plan-sets/{planSetId} ("Plan set revision" rows):
 * - Draft: edited in place;
 * - Published: never edited in place; the edit lands on a new Draft copy of it, returned in the
 *   response (the published revision and its status stay as they are);
 * - Archived: read-only (400).
 * `plans: null` keeps the revision's plans (for a published one, the copy gets them); a list
 * replaces them.
 */
export async function updatePlanSet(ctx: DomainContext, id: string, input: TPlanSetUpdateRequest) {
  return inTransaction(ctx.db, async (tx) => {
    const found = await tx.usagePlanSet.findUnique({ where: { id }, select: { suiteId: true } });
    if (!found) throw notFound("Plan set");
    await lockSuite(tx, ctx.tenantId, found.suiteId);
    // Re-read under the suite lock: a concurrent status move is now either done or waiting.
    const current = await tx.usagePlanSet.findUniqueOrThrow({ where: { id } });
    const status = current.status as TPlanSetStatus;
    if (status === "Archived")
      throw new AppError(
        "plan_set.archived",
        "This revision is archived, and archived revisions are read-only.",
      );
    refuseStatusChange(status, input.status);

    const members = await tx.suiteMember.findMany({
      where: { suiteId: current.suiteId },
      select: { productId: true },
    });
    const memberIds = members.map((m) => m.productId);
    const plans = input.plans
      ? await preparePlans(tx, { plans: input.plans, memberIds, stampSoleMember: false })
      : null;

    if (status === "Published") {
      const copy = await createDraftRevision(tx, ctx.tenantId, {
        suiteId: current.suiteId,
        name: input.name,
        description: input.description,
        sourcePlanSetId: current.id,
        plans: plans ?? (await copiedPlans(tx, current.id, memberIds)),
      });
      return (await readPlanSet(tx, copy.id))!;
    }
    await tx.usagePlanSet.update({
      where: { id },
      data: { name: input.name, description: input.description },
    });
    if (plans) {
      await deletePlans(tx, id);
      await writePlans(tx, ctx.tenantId, id, plans);
    }
    return (await readPlanSet(tx, id))!;
  });
}
