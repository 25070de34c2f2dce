import { router, staffProcedure } from "../../init.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import {
  ZAddOnCreateRequest,
  ZAddOnFeatureParams,
  ZAddOnIdParams,
  ZAddOnResponse,
  ZAddOnUpdateRequest,
} from "../../../domain/pricing/add-ons/add-on.schemas.ts";
import { listAddOns } from "../../../domain/pricing/add-ons/list-add-ons.ts";
import { getAddOn } from "../../../domain/pricing/add-ons/get-add-on.ts";
import { createAddOn } from "../../../domain/pricing/add-ons/create-add-on.ts";
import { updateAddOn } from "../../../domain/pricing/add-ons/update-add-on.ts";
import { deleteAddOn } from "../../../domain/pricing/add-ons/delete-add-on.ts";
import { archiveAddOn } from "../../../domain/pricing/add-ons/archive-add-on.ts";
import { addAddOnFeature } from "../../../domain/pricing/add-ons/add-add-on-feature.ts";

export const addOnsRouter = router({
  list: staffProcedure("catalog")
    .input(ZListQuery)
    .output(ZPage(ZAddOnResponse))
    .query(({ ctx, input }) => listAddOns(ctx.domain, input)),

  get: staffProcedure("catalog")
    .input(ZAddOnIdParams)
    .output(ZAddOnResponse)
    .query(({ ctx, input }) => getAddOn(ctx.domain, input.addOnId)),

  create: staffProcedure("catalog")
    .input(ZAddOnCreateRequest)
    .output(ZAddOnResponse)
    .mutation(({ ctx, input }) => createAddOn(ctx.domain, input)),

  update: staffProcedure("catalog")
    .input(ZAddOnIdParams.extend({ edit: ZAddOnUpdateRequest }))
    .output(ZAddOnResponse)
    .mutation(({ ctx, input }) => updateAddOn(ctx.domain, input.addOnId, input.edit)),

  delete: staffProcedure("catalog")
    .input(ZAddOnIdParams)
    .mutation(({ ctx, input }) => deleteAddOn(ctx.domain, input.addOnId)),

  archive: staffProcedure("catalog")
    .input(ZAddOnIdParams)
    .output(ZAddOnResponse)
    .mutation(({ ctx, input }) => archiveAddOn(ctx.domain, input.addOnId)),

  addFeature: staffProcedure("catalog")
    .input(ZAddOnFeatureParams)
    .output(ZAddOnResponse)
    .mutation(({ ctx, input }) => addAddOnFeature(ctx.domain, input.addOnId, input.featureCatalogId)),
});
