import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import { ZEntitlementIdParams } from "../../../domain/entitlements/entitlement/entitlement.schemas.ts";
import {
  ZBillingFields,
  ZBillingProviderEvent,
  ZBillingResponse,
} from "../../../domain/entitlements/billing/billing.schemas.ts";

const base = "/api/v1/provision/admin/entitlements/{id}/billing";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;
const Tag = "Entitlement billing";

export const getBillingContract = defineContract({
  method: "GET",
  path: base,
  tag: Tag,
  summary: "The entitlement's billing record",
  auth: clientScope("entitlement-adm"),
  params: ZEntitlementIdParams,
  response: ZBillingResponse,
  errors: [...common, "license.not_found"],
});

export const replaceBillingContract = defineContract({
  method: "PUT",
  path: base,
  tag: Tag,
  summary: "Replace the operator-editable billing fields (amount is informational, never charged)",
  auth: clientScope("entitlement-adm"),
  params: ZEntitlementIdParams,
  body: ZBillingFields,
  response: ZBillingResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "billing.unknown_provider",
    "idempotency.key_reused",
  ],
});

export const manualBillingEventContract = defineContract({
  method: "POST",
  path: `${base}/manual-events`,
  tag: Tag,
  summary:
    "Built-in manual provider: record the subscription's state, period end and references by hand (lapse rules apply)",
  auth: clientScope("entitlement-adm", "update"),
  params: ZEntitlementIdParams,
  body: ZBillingProviderEvent,
  response: ZBillingResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "billing.not_manual",
    "billing.subscription_reference_taken",
    "idempotency.key_reused",
  ],
});
