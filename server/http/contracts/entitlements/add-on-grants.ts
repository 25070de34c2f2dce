import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import { ZEntitlementIdParams } from "../../../domain/entitlements/entitlement/entitlement.schemas.ts";
import {
  ZAddOnGrantCreateRequest,
  ZAddOnGrantParams,
  ZAddOnGrantResponse,
} from "../../../domain/entitlements/add-on-grants/add-on-grant.schemas.ts";

const base = "/api/v1/provision/admin/entitlements/{id}/add-on-grants";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;
const Tag = "Add-on grants";

export const listAddOnGrantsContract = defineContract({
  method: "GET",
  path: base,
  tag: Tag,
  summary: "The entitlement's add-on grants (revoked and expired included; isActive computed)",
  auth: clientScope("entitlement-adm"),
  params: ZEntitlementIdParams,
  query: ZListQuery,
  response: ZPage(ZAddOnGrantResponse),
  errors: [...common, "license.validation_error", "license.not_found"],
});

export const createAddOnGrantContract = defineContract({
  method: "POST",
  path: base,
  tag: Tag,
  summary: "Grant an add-on of the suite of the entitlement's plan (campaignId records an attribution touch)",
  auth: clientScope("entitlement-adm"),
  params: ZEntitlementIdParams,
  body: ZAddOnGrantCreateRequest,
  response: ZAddOnGrantResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "entitlement.archived",
    "entitlement.no_plan",
    "add_on_grant.suite_mismatch",
    "add_on_grant.add_on_archived",
    "idempotency.key_reused",
  ],
});

export const revokeAddOnGrantContract = defineContract({
  method: "POST",
  path: `${base}/{grantId}/revoke`,
  tag: Tag,
  summary: "Revoke a grant (kept as history; no longer applies)",
  auth: clientScope("entitlement-adm", "update"),
  params: ZAddOnGrantParams,
  response: ZAddOnGrantResponse,
  errors: [...common, "license.not_found", "add_on_grant.already_revoked"],
});

const offerBase = "/api/v1/provision/admin/offers/{id}/add-on-grants";

export const listOfferAddOnGrantsContract = defineContract({
  method: "GET",
  path: offerBase,
  tag: Tag,
  summary: "The offer's add-on grants (copied to every entitlement made from it)",
  auth: clientScope("entitlement-adm"),
  params: ZEntitlementIdParams,
  query: ZListQuery,
  response: ZPage(ZAddOnGrantResponse),
  errors: [...common, "license.validation_error", "license.not_found"],
});

export const createOfferAddOnGrantContract = defineContract({
  method: "POST",
  path: offerBase,
  tag: Tag,
  summary: "Grant an add-on on an offer (the add-on's suite must be the offer plan's)",
  auth: clientScope("entitlement-adm"),
  params: ZEntitlementIdParams,
  body: ZAddOnGrantCreateRequest,
  response: ZAddOnGrantResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "offer.archived",
    "entitlement.no_plan",
    "add_on_grant.suite_mismatch",
    "add_on_grant.add_on_archived",
    "idempotency.key_reused",
  ],
});

export const revokeOfferAddOnGrantContract = defineContract({
  method: "POST",
  path: `${offerBase}/{grantId}/revoke`,
  tag: Tag,
  summary: "Revoke an offer's grant (entitlements already made keep theirs)",
  auth: clientScope("entitlement-adm", "update"),
  params: ZAddOnGrantParams,
  response: ZAddOnGrantResponse,
  errors: [...common, "license.not_found", "add_on_grant.already_revoked"],
});
