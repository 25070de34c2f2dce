import { z } from "zod";
import { router, staffProcedure } from "../../init.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import {
  ZProductCreateRequest,
  ZProductFeatureCreateRequest,
  ZProductFeatureParams,
  ZProductFeatureUpdateRequest,
  ZProductIdParams,
  ZProductReplaceRequest,
  ZProductResponse,
  ZProductUpdateRequest,
} from "../../../domain/catalog/products/product.schemas.ts";
import {
  ZMonitoredAssetCreateRequest,
  ZMonitoredAssetResponse,
} from "../../../domain/catalog/monitored-assets/monitored-asset.schemas.ts";
import { listProducts } from "../../../domain/catalog/products/list-products.ts";
import { getProduct } from "../../../domain/catalog/products/get-product.ts";
import { createProduct } from "../../../domain/catalog/products/create-product.ts";
import { replaceProduct } from "../../../domain/catalog/products/replace-product.ts";
import { updateProduct } from "../../../domain/catalog/products/update-product.ts";
import { deleteProduct } from "../../../domain/catalog/products/delete-product.ts";
import { addProductFeature } from "../../../domain/catalog/products/add-product-feature.ts";
import { updateProductFeature } from "../../../domain/catalog/products/update-product-feature.ts";
import { removeProductFeature } from "../../../domain/catalog/products/remove-product-feature.ts";
import { createMonitoredAsset } from "../../../domain/catalog/monitored-assets/create-monitored-asset.ts";
import { listProductMonitoredAssets } from "../../../domain/catalog/monitored-assets/list-monitored-assets.ts";

const ZProductListInput = ZListQuery.extend({ includeDeleted: z.boolean().default(false) });

export const productsRouter = router({
  list: staffProcedure("catalog")
    .input(ZProductListInput)
    .output(ZPage(ZProductResponse))
    .query(({ ctx, input }) => listProducts(ctx.domain, input)),

  get: staffProcedure("catalog")
    .input(ZProductIdParams)
    .output(ZProductResponse)
    .query(({ ctx, input }) => getProduct(ctx.domain, input.id)),

  create: staffProcedure("catalog")
    .input(ZProductCreateRequest)
    .output(ZProductResponse)
    .mutation(({ ctx, input }) => createProduct(ctx.domain, input)),

  replace: staffProcedure("catalog")
    .input(ZProductIdParams.extend({ product: ZProductReplaceRequest }))
    .output(ZProductResponse)
    .mutation(({ ctx, input }) => replaceProduct(ctx.domain, input.id, input.product)),

  update: staffProcedure("catalog")
    .input(ZProductIdParams.extend({ patch: ZProductUpdateRequest }))
    .output(ZProductResponse)
    .mutation(({ ctx, input }) => updateProduct(ctx.domain, input.id, input.patch)),

  delete: staffProcedure("catalog")
    .input(ZProductIdParams)
    .mutation(({ ctx, input }) => deleteProduct(ctx.domain, input.id)),

  addFeature: staffProcedure("catalog")
    .input(ZProductIdParams.extend({ feature: ZProductFeatureCreateRequest }))
    .output(ZProductResponse)
    .mutation(({ ctx, input }) => addProductFeature(ctx.domain, input.id, input.feature)),

  updateFeature: staffProcedure("catalog")
    .input(ZProductFeatureParams.extend({ patch: ZProductFeatureUpdateRequest }))
    .output(ZProductResponse)
    .mutation(({ ctx, input }) => updateProductFeature(ctx.domain, input.id, input.featureId, input.patch)),

  removeFeature: staffProcedure("catalog")
    .input(ZProductFeatureParams)
    .mutation(({ ctx, input }) => removeProductFeature(ctx.domain, input.id, input.featureId)),

  monitoredAssets: staffProcedure("catalog")
    .input(ZProductIdParams.extend(ZListQuery.shape))
    .output(ZPage(ZMonitoredAssetResponse))
    .query(({ ctx, input }) => listProductMonitoredAssets(ctx.domain, input.id, input)),

  createMonitoredAsset: staffProcedure("catalog")
    .input(ZProductIdParams.extend({ asset: ZMonitoredAssetCreateRequest }))
    .output(ZMonitoredAssetResponse)
    .mutation(({ ctx, input }) => createMonitoredAsset(ctx.domain, input.id, input.asset)),
});
