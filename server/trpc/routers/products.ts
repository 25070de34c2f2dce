import { z } from "zod";
import { router, staffProcedure } from "../init.ts";
import { ZListQuery, ZPage } from "../../http/pagination.ts";
import {
  ZProductCreateRequest, ZProductFeatureCreateRequest, ZProductFeatureParams, ZProductFeatureUpdateRequest, ZProductIdParams,
  ZProductReplaceRequest, ZProductResponse, ZProductUpdateRequest,
} from "../../domain/catalog/product.schemas.ts";
import { ZMonitoredAssetCreateRequest, ZMonitoredAssetResponse } from "../../domain/catalog/monitored-asset.schemas.ts";
import { listProducts } from "../../domain/catalog/list-products.ts";
import { getProduct } from "../../domain/catalog/get-product.ts";
import { createProduct } from "../../domain/catalog/create-product.ts";
import { replaceProduct } from "../../domain/catalog/replace-product.ts";
import { updateProduct } from "../../domain/catalog/update-product.ts";
import { deleteProduct } from "../../domain/catalog/delete-product.ts";
import { addProductFeature } from "../../domain/catalog/add-product-feature.ts";
import { updateProductFeature } from "../../domain/catalog/update-product-feature.ts";
import { removeProductFeature } from "../../domain/catalog/remove-product-feature.ts";
import { createMonitoredAsset } from "../../domain/catalog/create-monitored-asset.ts";
import { listProductMonitoredAssets } from "../../domain/catalog/list-monitored-assets.ts";

const ZProductListInput = ZListQuery.extend({ includeDeleted: z.boolean().default(false) });

export const productsRouter = router({
  list: staffProcedure.input(ZProductListInput).output(ZPage(ZProductResponse)).query(({ ctx, input }) => listProducts(ctx.domain, input)),

  get: staffProcedure.input(ZProductIdParams).output(ZProductResponse).query(({ ctx, input }) => getProduct(ctx.domain, input.id)),

  create: staffProcedure.input(ZProductCreateRequest).output(ZProductResponse).mutation(({ ctx, input }) => createProduct(ctx.domain, input)),

  replace: staffProcedure
    .input(ZProductIdParams.extend({ product: ZProductReplaceRequest }))
    .output(ZProductResponse)
    .mutation(({ ctx, input }) => replaceProduct(ctx.domain, input.id, input.product)),

  update: staffProcedure
    .input(ZProductIdParams.extend({ patch: ZProductUpdateRequest }))
    .output(ZProductResponse)
    .mutation(({ ctx, input }) => updateProduct(ctx.domain, input.id, input.patch)),

  delete: staffProcedure.input(ZProductIdParams).mutation(({ ctx, input }) => deleteProduct(ctx.domain, input.id)),

  addFeature: staffProcedure
    .input(ZProductIdParams.extend({ feature: ZProductFeatureCreateRequest }))
    .output(ZProductResponse)
    .mutation(({ ctx, input }) => addProductFeature(ctx.domain, input.id, input.feature)),

  updateFeature: staffProcedure
    .input(ZProductFeatureParams.extend({ patch: ZProductFeatureUpdateRequest }))
    .output(ZProductResponse)
    .mutation(({ ctx, input }) => updateProductFeature(ctx.domain, input.id, input.featureId, input.patch)),

  removeFeature: staffProcedure
    .input(ZProductFeatureParams)
    .mutation(({ ctx, input }) => removeProductFeature(ctx.domain, input.id, input.featureId)),

  monitoredAssets: staffProcedure
    .input(ZProductIdParams.extend(ZListQuery.shape))
    .output(ZPage(ZMonitoredAssetResponse))
    .query(({ ctx, input }) => listProductMonitoredAssets(ctx.domain, input.id, input)),

  createMonitoredAsset: staffProcedure
    .input(ZProductIdParams.extend({ asset: ZMonitoredAssetCreateRequest }))
    .output(ZMonitoredAssetResponse)
    .mutation(({ ctx, input }) => createMonitoredAsset(ctx.domain, input.id, input.asset)),
});
