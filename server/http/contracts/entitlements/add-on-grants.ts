import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import { ZEntitlementIdParams } from "../../../domain/entitlements/entitlement/entitlement.schemas.ts";
import {
  ZAddOnGrantCreateRequest,
  ZAddOnGrantParams,
  ZAddOnGrantResponse,
} from "../../../domain/entitlements/add-on-grants/add-on-grant.schemas.ts";

const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;
const Tag = "Add-on grants";

/**
 * The list, grant and revoke routes of one grant holder. An entitlement's and an offer's grants
 * follow the same rules and differ only in their path, their wording and the refusal of an
 * archived holder, so both are made here and cannot drift apart.
 */
function grantContracts<Archived extends "entitlement.archived" | "offer.archived">(holder: {
  base: string;
  archived: Archived;
  summaries: { list: string; create: string; revoke: string };
}) {
  return {
    list: defineContract({
      method: "GET",
      path: holder.base,
      tag: Tag,
      summary: holder.summaries.list,
      auth: clientScope("entitlement-adm"),
      params: ZEntitlementIdParams,
      query: ZListQuery,
      response: ZPage(ZAddOnGrantResponse),
      errors: [...common, "license.validation_error", "license.not_found"],
    }),
    create: defineContract({
      method: "POST",
      path: holder.base,
      tag: Tag,
      summary: holder.summaries.create,
      auth: clientScope("entitlement-adm"),
      params: ZEntitlementIdParams,
      body: ZAddOnGrantCreateRequest,
      response: ZAddOnGrantResponse,
      errors: [
        ...common,
        "license.validation_error",
        "license.not_found",
        holder.archived,
        "entitlement.no_plan",
        "add_on_grant.suite_mismatch",
        "add_on_grant.add_on_archived",
        "idempotency.key_reused",
      ],
    }),
    revoke: defineContract({
      method: "POST",
      path: `${holder.base}/{grantId}/revoke`,
      tag: Tag,
      summary: holder.summaries.revoke,
      auth: clientScope("entitlement-adm", "update"),
      params: ZAddOnGrantParams,
      response: ZAddOnGrantResponse,
      errors: [...common, "license.not_found", "add_on_grant.already_revoked"],
    }),
  };
}

const entitlementGrants = grantContracts({
  base: "/api/v1/provision/admin/entitlements/{id}/add-on-grants",
  archived: "entitlement.archived",
  summaries: {
    list: "The entitlement's add-on grants (revoked and expired included; isActive computed)",
    create:
      "Grant an add-on of the suite of the entitlement's plan (campaignId records an attribution touch)",
    revoke: "Revoke a grant (kept as history; no longer applies)",
  },
});
export const listAddOnGrantsContract = entitlementGrants.list;
export const createAddOnGrantContract = entitlementGrants.create;
export const revokeAddOnGrantContract = entitlementGrants.revoke;

const offerGrants = grantContracts({
  base: "/api/v1/provision/admin/offers/{id}/add-on-grants",
  archived: "offer.archived",
  summaries: {
    list: "The offer's add-on grants (copied to every entitlement made from it)",
    create: "Grant an add-on on an offer (the add-on's suite must be the offer plan's)",
    revoke: "Revoke an offer's grant (entitlements already made keep theirs)",
  },
});
export const listOfferAddOnGrantsContract = offerGrants.list;
export const createOfferAddOnGrantContract = offerGrants.create;
export const revokeOfferAddOnGrantContract = offerGrants.revoke;
