import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZFeatureCatalogCreateRequest,
  ZFeatureCatalogIdParams,
  ZFeatureCatalogListQuery,
  ZFeatureCatalogReplaceRequest,
  ZFeatureCatalogResponse,
  ZFeatureCodeRequest,
  ZFeatureLifecycleRequest,
} from "../../../domain/catalog/feature-catalog/feature-catalog.schemas.ts";

const base = "/api/v1/provision/admin/feature-catalog";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;
const Tag = "Feature catalog";

export const listFeatureCatalogContract = defineContract({
  method: "GET",
  path: base,
  tag: Tag,
  summary: "List feature catalog entries (referencedBy is null in lists)",
  auth: clientScope("feature-catalog"),
  query: ZListQuery.extend(ZFeatureCatalogListQuery.shape),
  response: ZPage(ZFeatureCatalogResponse),
  errors: [...common, "license.validation_error"],
});

export const createFeatureCatalogContract = defineContract({
  method: "POST",
  path: base,
  tag: Tag,
  summary: "Create a feature catalog entry (featureCode stored uppercase)",
  auth: clientScope("feature-catalog"),
  body: ZFeatureCatalogCreateRequest,
  response: ZFeatureCatalogResponse,
  status: 201,
  errors: [...common, "license.validation_error", "feature.code_taken", "idempotency.key_reused"],
});

export const getFeatureCatalogContract = defineContract({
  method: "GET",
  path: `${base}/{id}`,
  tag: Tag,
  summary: "Read a feature catalog entry with referencedBy",
  auth: clientScope("feature-catalog"),
  params: ZFeatureCatalogIdParams,
  response: ZFeatureCatalogResponse,
  errors: [...common, "license.not_found"],
});

export const replaceFeatureCatalogContract = defineContract({
  method: "PUT",
  path: `${base}/{id}`,
  tag: Tag,
  summary:
    "Replace name, units, metricName, featureType, visibility, meterAggregationType, valueScore, enumOptions and tags (not featureCode or lifecycleStatus)",
  auth: clientScope("feature-catalog"),
  params: ZFeatureCatalogIdParams,
  body: ZFeatureCatalogReplaceRequest,
  response: ZFeatureCatalogResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "concurrency.revision_mismatch",
    "idempotency.key_reused",
  ],
});

export const deleteFeatureCatalogContract = defineContract({
  method: "DELETE",
  path: `${base}/{id}`,
  tag: Tag,
  summary: "Delete an entry nothing refers to (soft delete); archive a referenced one instead",
  auth: clientScope("feature-catalog"),
  params: ZFeatureCatalogIdParams,
  status: 204,
  errors: [...common, "license.not_found", "feature.in_use"],
});

export const setFeatureLifecycleContract = defineContract({
  method: "PUT",
  path: `${base}/{id}/lifecycle`,
  tag: Tag,
  summary: "Move the entry's lifecycleStatus",
  auth: clientScope("feature-catalog"),
  params: ZFeatureCatalogIdParams,
  body: ZFeatureLifecycleRequest,
  response: ZFeatureCatalogResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "feature.invalid_lifecycle_transition",
    "concurrency.revision_mismatch",
    "idempotency.key_reused",
  ],
});

export const changeFeatureCodeContract = defineContract({
  method: "PUT",
  path: `${base}/{id}/code`,
  tag: Tag,
  summary: "Change the entry's featureCode (refused while plan sets or add-ons use the code)",
  auth: clientScope("feature-catalog"),
  params: ZFeatureCatalogIdParams,
  body: ZFeatureCodeRequest,
  response: ZFeatureCatalogResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "feature.code_taken",
    "feature.in_use",
    "concurrency.revision_mismatch",
    "idempotency.key_reused",
  ],
});
