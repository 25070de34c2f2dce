import { z } from "zod";
import { router, staffProcedure } from "../init.ts";
import { ZListQuery, ZPage } from "../../http/pagination.ts";
import {
  ZPlanSetCreateRequest, ZPlanSetIdParams, ZPlanSetResponse, ZPlanSetStatusRequest, ZPlanSetUpdateRequest,
} from "../../domain/catalog/plan-set.schemas.ts";
import { listPlanSets } from "../../domain/catalog/list-plan-sets.ts";
import { listPlanSetRevisions } from "../../domain/catalog/list-plan-set-revisions.ts";
import { getPlanSet } from "../../domain/catalog/get-plan-set.ts";
import { createPlanSet } from "../../domain/catalog/create-plan-set.ts";
import { updatePlanSet } from "../../domain/catalog/update-plan-set.ts";
import { movePlanSetStatus } from "../../domain/catalog/move-plan-set-status.ts";
import { searchPricingFeatures } from "../../domain/catalog/pricing-options.ts";

export const planSetsRouter = router({
  list: staffProcedure.input(ZListQuery).output(ZPage(ZPlanSetResponse)).query(({ ctx, input }) => listPlanSets(ctx.domain, input)),

  revisions: staffProcedure
    .input(ZPlanSetIdParams.extend(ZListQuery.shape))
    .output(ZPage(ZPlanSetResponse))
    .query(({ ctx, input }) => listPlanSetRevisions(ctx.domain, input.planSetId, input)),

  get: staffProcedure.input(ZPlanSetIdParams).output(ZPlanSetResponse).query(({ ctx, input }) => getPlanSet(ctx.domain, input.planSetId)),

  create: staffProcedure.input(ZPlanSetCreateRequest).output(ZPlanSetResponse).mutation(({ ctx, input }) => createPlanSet(ctx.domain, input)),

  update: staffProcedure
    .input(ZPlanSetIdParams.extend({ edit: ZPlanSetUpdateRequest }))
    .output(ZPlanSetResponse)
    .mutation(({ ctx, input }) => updatePlanSet(ctx.domain, input.planSetId, input.edit)),

  moveStatus: staffProcedure
    .input(ZPlanSetIdParams.extend(ZPlanSetStatusRequest.shape))
    .output(ZPlanSetResponse)
    .mutation(({ ctx, input }) => movePlanSetStatus(ctx.domain, input.planSetId, input.status)),

  featureOptions: staffProcedure
    .input(z.object({ term: z.string().max(100).default("") }))
    .query(({ ctx, input }) => searchPricingFeatures(ctx.domain, input.term)),
});
