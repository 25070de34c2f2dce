import { router, staffProcedure } from "../init.ts";
import { ZListQuery, ZPage } from "../../http/pagination.ts";
import {
  ZAddOnCreateRequest, ZAddOnFeatureParams, ZAddOnIdParams, ZAddOnResponse, ZAddOnUpdateRequest,
} from "../../domain/catalog/add-on.schemas.ts";
import { listAddOns } from "../../domain/catalog/list-add-ons.ts";
import { getAddOn } from "../../domain/catalog/get-add-on.ts";
import { createAddOn } from "../../domain/catalog/create-add-on.ts";
import { updateAddOn } from "../../domain/catalog/update-add-on.ts";
import { deleteAddOn } from "../../domain/catalog/delete-add-on.ts";
import { archiveAddOn } from "../../domain/catalog/archive-add-on.ts";
import { addAddOnFeature } from "../../domain/catalog/add-add-on-feature.ts";

export const addOnsRouter = router({
  list: staffProcedure.input(ZListQuery).output(ZPage(ZAddOnResponse)).query(({ ctx, input }) => listAddOns(ctx.domain, input)),

  get: staffProcedure.input(ZAddOnIdParams).output(ZAddOnResponse).query(({ ctx, input }) => getAddOn(ctx.domain, input.addOnId)),

  create: staffProcedure.input(ZAddOnCreateRequest).output(ZAddOnResponse).mutation(({ ctx, input }) => createAddOn(ctx.domain, input)),

  update: staffProcedure
    .input(ZAddOnIdParams.extend({ edit: ZAddOnUpdateRequest }))
    .output(ZAddOnResponse)
    .mutation(({ ctx, input }) => updateAddOn(ctx.domain, input.addOnId, input.edit)),

  delete: staffProcedure.input(ZAddOnIdParams).mutation(({ ctx, input }) => deleteAddOn(ctx.domain, input.addOnId)),

  archive: staffProcedure.input(ZAddOnIdParams).output(ZAddOnResponse).mutation(({ ctx, input }) => archiveAddOn(ctx.domain, input.addOnId)),

  addFeature: staffProcedure
    .input(ZAddOnFeatureParams)
    .output(ZAddOnResponse)
    .mutation(({ ctx, input }) => addAddOnFeature(ctx.domain, input.addOnId, input.featureCatalogId)),
});
