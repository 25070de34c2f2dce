import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZProductCreateRequest,
  ZProductFeatureCreateRequest,
  ZProductFeatureParams,
  ZProductFeatureUpdateRequest,
  ZProductIdParams,
  ZProductListQuery,
  ZProductReplaceRequest,
  ZProductResponse,
  ZProductUpdateRequest,
} from "../../../domain/catalog/products/product.schemas.ts";
import {
  ZMonitoredAssetCreateRequest,
  ZMonitoredAssetResponse,
} from "../../../domain/catalog/monitored-assets/monitored-asset.schemas.ts";

const base = "/api/v1/provision/admin/products";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;
const Tag = "Products";

export const listProductsContract = defineContract({
  method: "GET",
  path: base,
  tag: Tag,
  summary: "List products (features, monitored assets, metrics and referencedBy included)",
  auth: clientScope("product"),
  query: ZListQuery.extend(ZProductListQuery.shape),
  response: ZPage(ZProductResponse),
  errors: [...common, "license.validation_error"],
});

export const createProductContract = defineContract({
  method: "POST",
  path: base,
  tag: Tag,
  summary: "Create a product (status Draft unless given)",
  auth: clientScope("product"),
  body: ZProductCreateRequest,
  response: ZProductResponse,
  status: 201,
  errors: [...common, "license.validation_error", "product.code_taken", "idempotency.key_reused"],
});

export const getProductContract = defineContract({
  method: "GET",
  path: `${base}/{id}`,
  tag: Tag,
  summary: "Read a product",
  auth: clientScope("product"),
  params: ZProductIdParams,
  response: ZProductResponse,
  errors: [...common, "license.not_found"],
});

const editErrors = [
  ...common,
  "license.validation_error",
  "license.not_found",
  "product.code_taken",
  "product.locked",
  "product.invalid_status_transition",
  "concurrency.revision_mismatch",
  "idempotency.key_reused",
] as const;

export const replaceProductContract = defineContract({
  method: "PUT",
  path: `${base}/{id}`,
  tag: Tag,
  summary: "Replace a product's editable fields (features and monitored assets have their own endpoints)",
  auth: clientScope("product"),
  params: ZProductIdParams,
  body: ZProductReplaceRequest,
  response: ZProductResponse,
  errors: editErrors,
});

export const updateProductContract = defineContract({
  method: "PATCH",
  path: `${base}/{id}`,
  tag: Tag,
  summary:
    "Change a product (merge-PATCH; clearExpirationDate, clearExternalId, clearParentProductId clear; propertyValues merge by name, null removes)",
  auth: clientScope("product"),
  params: ZProductIdParams,
  body: ZProductUpdateRequest,
  response: ZProductResponse,
  errors: editErrors,
});

export const deleteProductContract = defineContract({
  method: "DELETE",
  path: `${base}/{id}`,
  tag: Tag,
  summary:
    "Delete a product (soft delete; refused while entitlements, offers, suites or plan sets refer to it)",
  auth: clientScope("product"),
  params: ZProductIdParams,
  status: 204,
  errors: [...common, "license.not_found", "product.locked", "product.in_use"],
});

export const addProductFeatureContract = defineContract({
  method: "POST",
  path: `${base}/{id}/features`,
  tag: Tag,
  summary: "Attach a feature catalog entry to the product (answers the product)",
  auth: clientScope("product", "update"),
  params: ZProductIdParams,
  body: ZProductFeatureCreateRequest,
  response: ZProductResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "product.locked",
    "product.feature_already_attached",
    "feature.not_attachable",
    "idempotency.key_reused",
  ],
});

export const updateProductFeatureContract = defineContract({
  method: "PATCH",
  path: `${base}/{id}/features/{featureId}`,
  tag: Tag,
  summary: "Change a product feature's value, flags or position (merge-PATCH; answers the product)",
  auth: clientScope("product", "update"),
  params: ZProductFeatureParams,
  body: ZProductFeatureUpdateRequest,
  response: ZProductResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "product.locked",
    "concurrency.revision_mismatch",
    "idempotency.key_reused",
  ],
});

export const removeProductFeatureContract = defineContract({
  method: "DELETE",
  path: `${base}/{id}/features/{featureId}`,
  tag: Tag,
  summary: "Remove a feature from the product (the others close up)",
  auth: clientScope("product", "update"),
  params: ZProductFeatureParams,
  status: 204,
  errors: [...common, "license.not_found", "product.locked"],
});

export const listProductMonitoredAssetsContract = defineContract({
  method: "GET",
  path: `${base}/{id}/monitored-assets`,
  tag: Tag,
  summary: "List the product's monitored assets",
  auth: clientScope("monitored-asset"),
  params: ZProductIdParams,
  query: ZListQuery,
  response: ZPage(ZMonitoredAssetResponse),
  errors: [...common, "license.validation_error", "license.not_found"],
});

export const createProductMonitoredAssetContract = defineContract({
  method: "POST",
  path: `${base}/{id}/monitored-assets`,
  tag: Tag,
  summary: "Add a monitored asset (metered usage or a credit balance) to the product",
  auth: clientScope("monitored-asset"),
  params: ZProductIdParams,
  body: ZMonitoredAssetCreateRequest,
  response: ZMonitoredAssetResponse,
  status: 201,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "product.locked",
    "asset.metric_taken",
    "idempotency.key_reused",
  ],
});
