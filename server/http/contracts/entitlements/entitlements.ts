import { z } from "zod";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZEntitlementCreateRequest,
  ZEntitlementIdParams,
  ZEntitlementResponse,
  ZEntitlementUpdateRequest,
} from "../../../domain/entitlements/entitlement/entitlement.schemas.ts";
import { BODY_LIMITS } from "../../body.ts";

const base = "/api/v1/provision/admin/entitlements";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;
const Tag = "Entitlements";

export const listEntitlementsContract = defineContract({
  method: "GET",
  path: base,
  tag: Tag,
  summary:
    "List entitlements (filter by customerId, status, sourceOfferId...; expiringWithinDays for expiring soon)",
  auth: clientScope("entitlement-adm"),
  query: ZListQuery.extend({ expiringWithinDays: z.coerce.number().int().min(0).max(36_500).optional() }),
  response: ZPage(ZEntitlementResponse),
  errors: [...common, "license.validation_error"],
});

export const createEntitlementContract = defineContract({
  method: "POST",
  path: base,
  tag: Tag,
  summary: "Create an entitlement from a Published offer (a snapshot) or directly",
  auth: clientScope("entitlement-adm"),
  body: ZEntitlementCreateRequest,
  // Whole plan sets, add-ons and offers (hundreds of feature values of up to 10,000 characters).
  maxBodyBytes: BODY_LIMITS.large,
  response: ZEntitlementResponse,
  status: 201,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "offer.not_published",
    "entitlement.invalid_validity",
    "plan.not_found",
    "plan.plan_set_not_published",
    "idempotency.key_reused",
    "anonymous_try.not_anonymous_try",
    "anonymous_try.already_converted",
    "anonymous_try.invalid_conversion_target",
    "entitlement.archived",
  ],
});

export const getEntitlementContract = defineContract({
  method: "GET",
  path: `${base}/{id}`,
  tag: Tag,
  summary: "Read an entitlement (with its plan-assignment history)",
  auth: clientScope("entitlement-adm"),
  params: ZEntitlementIdParams,
  response: ZEntitlementResponse,
  errors: [...common, "license.not_found"],
});

export const updateEntitlementContract = defineContract({
  method: "PATCH",
  path: `${base}/{id}`,
  tag: Tag,
  summary:
    "Change an entitlement (merge-PATCH; clearExpirationDate, clearNotValidBeforeDate, clearCustomer clear; featureOverrides where canModifyValueOnEntitlement)",
  auth: clientScope("entitlement-adm"),
  params: ZEntitlementIdParams,
  body: ZEntitlementUpdateRequest,
  // Whole plan sets, add-ons and offers (hundreds of feature values of up to 10,000 characters).
  maxBodyBytes: BODY_LIMITS.large,
  response: ZEntitlementResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "entitlement.archived",
    "entitlement.invalid_validity",
    "entitlement.feature_not_modifiable",
    "idempotency.key_reused",
  ],
});

export const deleteEntitlementContract = defineContract({
  method: "DELETE",
  path: `${base}/{id}`,
  tag: Tag,
  summary: "Archive an entitlement (kept for history; activations off)",
  auth: clientScope("entitlement-adm"),
  params: ZEntitlementIdParams,
  status: 204,
  errors: [...common, "license.not_found"],
});

export const enableActivationsContract = defineContract({
  method: "POST",
  path: `${base}/{id}/enable-activations`,
  tag: Tag,
  summary: "Allow new activations of the entitlement",
  auth: clientScope("entitlement-adm", "update"),
  params: ZEntitlementIdParams,
  response: ZEntitlementResponse,
  errors: [...common, "license.not_found", "entitlement.archived"],
});

export const disableActivationsContract = defineContract({
  method: "POST",
  path: `${base}/{id}/disable-activations`,
  tag: Tag,
  summary: "Refuse new activations of the entitlement (existing sessions are not ended)",
  auth: clientScope("entitlement-adm", "update"),
  params: ZEntitlementIdParams,
  response: ZEntitlementResponse,
  errors: [...common, "license.not_found", "entitlement.archived"],
});
