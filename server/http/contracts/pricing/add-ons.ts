import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZAddOnCreateRequest,
  ZAddOnFeatureParams,
  ZAddOnIdParams,
  ZAddOnResponse,
  ZAddOnUpdateRequest,
} from "../../../domain/pricing/add-ons/add-on.schemas.ts";
import { BODY_LIMITS } from "../../body.ts";

const base = "/api/v1/provision/admin/usage-plans/add-ons";
const tag = "Add-ons";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;

export const listAddOnsContract = defineContract({
  method: "GET",
  path: base,
  tag,
  summary: "List add-ons (referencedBy is null in lists)",
  auth: clientScope("add-on"),
  query: ZListQuery,
  response: ZPage(ZAddOnResponse),
  errors: [...common, "license.validation_error"],
});

export const createAddOnContract = defineContract({
  method: "POST",
  path: base,
  tag,
  summary: "Create a Draft add-on of a suite",
  auth: clientScope("add-on"),
  body: ZAddOnCreateRequest,
  // Whole plan sets, add-ons and offers (hundreds of feature values of up to 10,000 characters).
  maxBodyBytes: BODY_LIMITS.large,
  response: ZAddOnResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "add_on.code_taken",
    "idempotency.key_reused",
  ],
});

export const getAddOnContract = defineContract({
  method: "GET",
  path: `${base}/{addOnId}`,
  tag,
  summary: "Read an add-on with referencedBy",
  auth: clientScope("add-on"),
  params: ZAddOnIdParams,
  response: ZAddOnResponse,
  errors: [...common, "license.not_found"],
});

export const updateAddOnContract = defineContract({
  method: "PUT",
  path: `${base}/{addOnId}`,
  tag,
  summary:
    "Replace an add-on (featureCatalogIds/featureValues null keep them); archived add-ons are read-only",
  auth: clientScope("add-on"),
  params: ZAddOnIdParams,
  body: ZAddOnUpdateRequest,
  // Whole plan sets, add-ons and offers (hundreds of feature values of up to 10,000 characters).
  maxBodyBytes: BODY_LIMITS.large,
  response: ZAddOnResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "add_on.code_taken",
    "add_on.archived",
    "idempotency.key_reused",
  ],
});

export const deleteAddOnContract = defineContract({
  method: "DELETE",
  path: `${base}/{addOnId}`,
  tag,
  summary: "Delete a Draft add-on that has no grants; otherwise 400: archive it instead",
  auth: clientScope("add-on"),
  params: ZAddOnIdParams,
  status: 204,
  errors: [...common, "license.not_found", "add_on.delete_refused"],
});

export const archiveAddOnContract = defineContract({
  method: "POST",
  path: `${base}/{addOnId}/archive`,
  tag,
  summary: "Archive an add-on (read-only from then on; grants stay)",
  auth: clientScope("add-on", "update"),
  params: ZAddOnIdParams,
  response: ZAddOnResponse,
  errors: [...common, "license.not_found", "idempotency.key_reused"],
});

export const addAddOnFeatureContract = defineContract({
  method: "POST",
  path: `${base}/{addOnId}/features/{featureCatalogId}`,
  tag,
  summary: "Make the add-on grant a feature catalog entry",
  auth: clientScope("add-on", "update"),
  params: ZAddOnFeatureParams,
  response: ZAddOnResponse,
  errors: [...common, "license.not_found", "add_on.archived", "idempotency.key_reused"],
});
