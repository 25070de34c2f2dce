import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { planSetPage } from "./list-plan-sets.ts";

/** GET .../{planSetId}/revisions: the timeline of the revision's suite, latest revision first. */
export async function listPlanSetRevisions(ctx: DomainContext, planSetId: string, query: TListQuery) {
  const planSet = await ctx.db.usagePlanSet.findUnique({
    where: { id: planSetId },
    select: { suiteId: true },
  });
  if (!planSet) throw notFound("Plan set");
  return planSetPage(ctx, query, { suiteId: planSet.suiteId }, [{ revision: "desc" }]);
}
