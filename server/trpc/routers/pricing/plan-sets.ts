import { z } from "zod";
import { router, staffProcedure } from "../../init.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import {
  ZPlanSetCreateRequest,
  ZPlanSetIdParams,
  ZPlanSetResponse,
  ZPlanSetStatusRequest,
  ZPlanSetUpdateRequest,
} from "../../../domain/pricing/plan-sets/plan-set.schemas.ts";
import { listPlanSets } from "../../../domain/pricing/plan-sets/list-plan-sets.ts";
import { listPlanSetRevisions } from "../../../domain/pricing/plan-sets/list-plan-set-revisions.ts";
import { getPlanSet } from "../../../domain/pricing/plan-sets/get-plan-set.ts";
import { createPlanSet } from "../../../domain/pricing/plan-sets/create-plan-set.ts";
import { updatePlanSet } from "../../../domain/pricing/plan-sets/update-plan-set.ts";
import { movePlanSetStatus } from "../../../domain/pricing/plan-sets/move-plan-set-status.ts";
import { searchPricingFeatures } from "../../../domain/pricing/pricing-options.ts";

export const planSetsRouter = router({
  list: staffProcedure("catalog")
    .input(ZListQuery)
    .output(ZPage(ZPlanSetResponse))
    .query(({ ctx, input }) => listPlanSets(ctx.domain, input)),

  revisions: staffProcedure("catalog")
    .input(ZPlanSetIdParams.extend(ZListQuery.shape))
    .output(ZPage(ZPlanSetResponse))
    .query(({ ctx, input }) => listPlanSetRevisions(ctx.domain, input.planSetId, input)),

  get: staffProcedure("catalog")
    .input(ZPlanSetIdParams)
    .output(ZPlanSetResponse)
    .query(({ ctx, input }) => getPlanSet(ctx.domain, input.planSetId)),

  create: staffProcedure("catalog")
    .input(ZPlanSetCreateRequest)
    .output(ZPlanSetResponse)
    .mutation(({ ctx, input }) => createPlanSet(ctx.domain, input)),

  update: staffProcedure("catalog")
    .input(ZPlanSetIdParams.extend({ edit: ZPlanSetUpdateRequest }))
    .output(ZPlanSetResponse)
    .mutation(({ ctx, input }) => updatePlanSet(ctx.domain, input.planSetId, input.edit)),

  moveStatus: staffProcedure("catalog")
    .input(ZPlanSetIdParams.extend(ZPlanSetStatusRequest.shape))
    .output(ZPlanSetResponse)
    .mutation(({ ctx, input }) => movePlanSetStatus(ctx.domain, input.planSetId, input.status)),

  featureOptions: staffProcedure("catalog")
    .input(z.object({ term: z.string().max(100).default("") }))
    .query(({ ctx, input }) => searchPricingFeatures(ctx.domain, input.term)),
});
