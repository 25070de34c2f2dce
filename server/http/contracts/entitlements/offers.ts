import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZOfferIdParams,
  ZOfferPatchRequest,
  ZOfferResponse,
  ZOfferWriteRequest,
} from "../../../domain/entitlements/offers/offer.schemas.ts";
import { BODY_LIMITS } from "../../body.ts";

const base = "/api/v1/provision/admin/offers";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;
const Tag = "Offers";
const writeErrors = [
  ...common,
  "license.validation_error",
  "license.not_found",
  "entitlement.invalid_validity",
  "plan.not_found",
  "idempotency.key_reused",
] as const;

export const listOffersContract = defineContract({
  method: "GET",
  path: base,
  tag: Tag,
  summary: "List offers (entitlement templates)",
  auth: clientScope("entitlement-adm"),
  query: ZListQuery,
  response: ZPage(ZOfferResponse),
  errors: [...common, "license.validation_error"],
});

export const createOfferContract = defineContract({
  method: "POST",
  path: base,
  tag: Tag,
  summary: "Create a Draft offer from catalog products (features and monitored assets are snapshotted)",
  auth: clientScope("entitlement-adm"),
  body: ZOfferWriteRequest,
  // Whole plan sets, add-ons and offers (hundreds of feature values of up to 10,000 characters).
  maxBodyBytes: BODY_LIMITS.large,
  response: ZOfferResponse,
  status: 201,
  errors: writeErrors,
});

export const getOfferContract = defineContract({
  method: "GET",
  path: `${base}/{id}`,
  tag: Tag,
  summary: "Read an offer",
  auth: clientScope("entitlement-adm"),
  params: ZOfferIdParams,
  response: ZOfferResponse,
  errors: [...common, "license.not_found"],
});

export const replaceOfferContract = defineContract({
  method: "PUT",
  path: `${base}/{id}`,
  tag: Tag,
  summary:
    "Replace an offer's editable fields (a Published offer's version goes up; existing entitlements are unchanged)",
  auth: clientScope("entitlement-adm"),
  params: ZOfferIdParams,
  body: ZOfferWriteRequest,
  // Whole plan sets, add-ons and offers (hundreds of feature values of up to 10,000 characters).
  maxBodyBytes: BODY_LIMITS.large,
  response: ZOfferResponse,
  errors: [...writeErrors, "offer.archived"],
});

export const deleteOfferContract = defineContract({
  method: "DELETE",
  path: `${base}/{id}`,
  tag: Tag,
  summary: "Delete a Draft offer; a Published offer is archived",
  auth: clientScope("entitlement-adm"),
  params: ZOfferIdParams,
  status: 204,
  errors: [...common, "license.not_found"],
});

export const publishOfferContract = defineContract({
  method: "POST",
  path: `${base}/{id}/publish`,
  tag: Tag,
  summary: "Publish a Draft offer (entitlements can then be made from it)",
  auth: clientScope("entitlement-adm", "update"),
  params: ZOfferIdParams,
  response: ZOfferResponse,
  errors: [
    ...common,
    "license.not_found",
    "offer.invalid_status_transition",
    "plan.plan_set_not_published",
    "plan.not_found",
  ],
});

export const updateOfferContract = defineContract({
  method: "PATCH",
  path: `${base}/{id}`,
  tag: Tag,
  summary: "Change an offer (merge: given fields replace the offer's; the result is validated like PUT)",
  auth: clientScope("entitlement-adm"),
  params: ZOfferIdParams,
  body: ZOfferPatchRequest,
  // Whole plan sets, add-ons and offers (hundreds of feature values of up to 10,000 characters).
  maxBodyBytes: BODY_LIMITS.large,
  response: ZOfferResponse,
  errors: [...writeErrors, "offer.archived"],
});
