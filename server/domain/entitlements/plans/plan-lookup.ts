import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { AppError, notFound } from "../../../core/errors.ts";

export type ResolvedPlan = {
  planSetId: string;
  suiteId: string;
  planId: string;
  planName: string;
  planSetStatus: string;
};

/**
 * A plan of a plan-set revision, by name (docs/api.md: a plan is assigned as plan set revision + plan).
 * Assigning needs a Published revision; an offer may name a Draft one while it is itself a Draft.
 */
export async function resolvePlan(
  db: TenantDbOrTx,
  planSetId: string,
  planName: string,
  options: { requirePublished: boolean },
): Promise<ResolvedPlan> {
  const planSet = await db.usagePlanSet.findUnique({
    where: { id: planSetId },
    select: { id: true, suiteId: true, status: true, plans: { select: { id: true, name: true } } },
  });
  if (!planSet) throw notFound(`Plan set ${planSetId}`);
  if (options.requirePublished && planSet.status !== "Published") {
    throw new AppError(
      "plan.plan_set_not_published",
      `Plan set revision ${planSetId} is ${planSet.status}; plans are assigned from a Published revision.`,
    );
  }
  const plan =
    planSet.plans.find((p) => p.name === planName) ??
    planSet.plans.find((p) => p.name.toLowerCase() === planName.toLowerCase());
  if (!plan) throw new AppError("plan.not_found", `Plan set ${planSetId} has no plan named "${planName}".`);
  return {
    planSetId: planSet.id,
    suiteId: planSet.suiteId,
    planId: plan.id,
    planName: plan.name,
    planSetStatus: planSet.status,
  };
}
