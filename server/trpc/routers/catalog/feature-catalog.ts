import { z } from "zod";
import { router, staffProcedure } from "../../init.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import {
  ZFeatureCatalogCreateRequest,
  ZFeatureCatalogIdParams,
  ZFeatureCatalogReplaceRequest,
  ZFeatureCatalogResponse,
  ZFeatureCodeRequest,
  ZFeatureLifecycleRequest,
} from "../../../domain/catalog/feature-catalog/feature-catalog.schemas.ts";
import { listFeatureCatalog } from "../../../domain/catalog/feature-catalog/list-feature-catalog.ts";
import { getFeatureCatalogEntry } from "../../../domain/catalog/feature-catalog/get-feature-catalog-entry.ts";
import { createFeatureCatalogEntry } from "../../../domain/catalog/feature-catalog/create-feature-catalog-entry.ts";
import { replaceFeatureCatalogEntry } from "../../../domain/catalog/feature-catalog/replace-feature-catalog-entry.ts";
import { setFeatureLifecycle } from "../../../domain/catalog/feature-catalog/set-feature-lifecycle.ts";
import { changeFeatureCode } from "../../../domain/catalog/feature-catalog/change-feature-code.ts";
import { deleteFeatureCatalogEntry } from "../../../domain/catalog/feature-catalog/delete-feature-catalog-entry.ts";

const ZListInput = ZListQuery.extend({ includeDeleted: z.boolean().default(false) });

export const featureCatalogRouter = router({
  list: staffProcedure("catalog")
    .input(ZListInput)
    .output(ZPage(ZFeatureCatalogResponse))
    .query(({ ctx, input }) => listFeatureCatalog(ctx.domain, input)),

  get: staffProcedure("catalog")
    .input(ZFeatureCatalogIdParams)
    .output(ZFeatureCatalogResponse)
    .query(({ ctx, input }) => getFeatureCatalogEntry(ctx.domain, input.id)),

  create: staffProcedure("catalog")
    .input(ZFeatureCatalogCreateRequest)
    .output(ZFeatureCatalogResponse)
    .mutation(({ ctx, input }) => createFeatureCatalogEntry(ctx.domain, input)),

  replace: staffProcedure("catalog")
    .input(ZFeatureCatalogIdParams.extend({ entry: ZFeatureCatalogReplaceRequest }))
    .output(ZFeatureCatalogResponse)
    .mutation(({ ctx, input }) => replaceFeatureCatalogEntry(ctx.domain, input.id, input.entry)),

  setLifecycle: staffProcedure("catalog")
    .input(ZFeatureCatalogIdParams.extend(ZFeatureLifecycleRequest.shape))
    .output(ZFeatureCatalogResponse)
    .mutation(({ ctx, input }) => setFeatureLifecycle(ctx.domain, input.id, input)),

  changeCode: staffProcedure("catalog")
    .input(ZFeatureCatalogIdParams.extend(ZFeatureCodeRequest.shape))
    .output(ZFeatureCatalogResponse)
    .mutation(({ ctx, input }) => changeFeatureCode(ctx.domain, input.id, input)),

  delete: staffProcedure("catalog")
    .input(ZFeatureCatalogIdParams)
    .mutation(({ ctx, input }) => deleteFeatureCatalogEntry(ctx.domain, input.id)),
});
