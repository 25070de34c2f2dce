import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZEntitlementIdParams,
  ZEntitlementResponse,
} from "../../../domain/entitlements/entitlement/entitlement.schemas.ts";
import { ZEntitlementRenewRequest } from "../../../domain/entitlements/entitlement/renewal.schemas.ts";
import { ZConvertAnonymousTryRequest } from "../../../domain/licensing/anonymous-try/anonymous-try.schemas.ts";

const operational = "/api/v1/provision/operational/entitlements";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;
const Tag = "Entitlement lifecycle";

export const renewEntitlementContract = defineContract({
  method: "POST",
  path: `${operational}/{id}/renew`,
  tag: Tag,
  summary:
    "Renew: extend a Published entitlement's expirationDateTime (never earlier); records the renewal, moves a manual billing record's currentPeriodEnd, emits Entitlement.Renewed. The current expiration again changes nothing",
  auth: clientScope("entitlement-adm"),
  params: ZEntitlementIdParams,
  body: ZEntitlementRenewRequest,
  response: ZEntitlementResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "entitlement.archived",
    "entitlement.not_renewable",
    "entitlement.renewal_shortens",
    "entitlement.invalid_validity",
    "idempotency.key_reused",
  ],
});

export const convertAnonymousTryContract = defineContract({
  method: "POST",
  path: `${operational}/{id}/convert`,
  tag: Tag,
  summary:
    "Convert the anonymous try {id} to the entitlement its user registered for or bought (convertedToEntitlementId); it is no longer purged",
  auth: clientScope("entitlement-adm"),
  params: ZEntitlementIdParams,
  body: ZConvertAnonymousTryRequest,
  response: ZEntitlementResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "entitlement.archived",
    "anonymous_try.not_anonymous_try",
    "anonymous_try.already_converted",
    "anonymous_try.invalid_conversion_target",
    "idempotency.key_reused",
  ],
});
