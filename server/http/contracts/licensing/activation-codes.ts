import { ZEntitlementIdParams } from "../../../domain/entitlements/entitlement/entitlement.schemas.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope, consumer } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZActivationCodeIssueRequest,
  ZActivationCodeIssueResponse,
  ZActivationCodeParams,
  ZActivationCodeResponse,
} from "../../../domain/licensing/activation-codes/activation-code.schemas.ts";

const operational = "/api/v1/provision/operational";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;

export const issueActivationCodesContract = defineContract({
  method: "POST",
  path: `${operational}/entitlements/{id}/activation-codes`,
  tag: "Activation codes",
  summary: "Issue activation codes for an entitlement, following its keyIssuancePolicy",
  auth: clientScope("activation-code"),
  params: ZEntitlementIdParams,
  body: ZActivationCodeIssueRequest,
  response: ZActivationCodeIssueResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "activation_code.issuance_disabled",
    "activation_code.collision_retry_exhausted",
    "activation_code.sequence_exhausted",
    "idempotency.key_reused",
  ],
});

export const listActivationCodesContract = defineContract({
  method: "GET",
  path: `${operational}/activation-codes`,
  tag: "Activation codes",
  summary: "List the tenant's activation codes",
  auth: clientScope("activation-code"),
  query: ZListQuery,
  response: ZPage(ZActivationCodeResponse),
  errors: [...common, "license.validation_error"],
});

export const revokeActivationCodeContract = defineContract({
  method: "POST",
  path: `${operational}/activation-codes/{code}/revoke`,
  tag: "Activation codes",
  summary:
    "Revoke an activation code (given as issued, any normalized variant, or its id); it admits no new activation",
  auth: clientScope("activation-code", "update"),
  params: ZActivationCodeParams,
  response: ZActivationCodeResponse,
  errors: [...common, "license.not_found", "idempotency.key_reused"],
});

export const listConsumerActivationCodesContract = defineContract({
  method: "GET",
  path: "/api/v1/provision/consumer/me/activation-codes",
  tag: "Consumer",
  summary: "Activation codes of the entitlements assigned to the signed-in user",
  auth: consumer,
  query: ZListQuery,
  response: ZPage(ZActivationCodeResponse),
  errors: ["auth.unauthenticated", "license.validation_error"],
});
