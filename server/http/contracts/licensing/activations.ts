import { anonymous, licenseSession } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZActivationLicenseResponse,
  ZActivationRequest,
  ZActivationTokenResponse,
  ZRenewResponse,
  ZSessionLeaseResponse,
  ZSessionParams,
} from "../../../domain/licensing/activation/activation.schemas.ts";

const base = "/api/v1/provision/activations";

/** Every refusal of the activation decision (docs/decisions.md "Activation"), in its order. */
const activationErrors = [
  "license.validation_error",
  "license.activation_code_required",
  "auth.unauthenticated",
  "license.user_authentication_required",
  "license.user_not_verified",
  "license.not_found",
  "activation_code.revoked",
  "license.activations_disabled",
  "license.not_yet_valid",
  "license.subscription_lapsed",
  "license.trial_expired",
  "license.expired",
  "license.forbidden_by_policy",
  "license.ip_not_allowed",
  "license.device_signature_invalid",
  "license.product_code_required",
  "license.product_not_licensed",
  "license.device_not_registered",
  "license.device_blocked",
  "license.product_end_of_life",
  "license.no_seat_available",
  "license.device_limit_reached",
  "idempotency.key_reused",
  "license.no_active_session",
] as const;

export const activateJwtContract = defineContract({
  method: "POST",
  path: `${base}/jwt`,
  tag: "Runtime",
  summary:
    "Activate (anonymous): the signed license token alone, as a JSON string. Same code and fingerprint → the existing session; Idempotency-Key is durable on the session",
  auth: anonymous,
  body: ZActivationRequest,
  response: ZActivationTokenResponse,
  errors: activationErrors,
  rateLimits: ["activation.ip", "activation.code"],
  // Counted in the statement that reads the activation code (find-activation-code.ts).
  rateLimitsCountedByHandler: true,
});

export const activateLicenseContract = defineContract({
  method: "POST",
  path: `${base}/license`,
  tag: "Runtime",
  summary:
    "Activate (anonymous): the token plus license metadata (description, terms link, products with Public properties, features)",
  auth: anonymous,
  body: ZActivationRequest,
  response: ZActivationLicenseResponse,
  errors: activationErrors,
  rateLimits: ["activation.ip", "activation.code"],
  // Counted in the statement that reads the activation code (find-activation-code.ts).
  rateLimitsCountedByHandler: true,
});

const sessionErrors = ["license.session_token_rejected", "license.no_active_session"] as const;

export const renewSessionContract = defineContract({
  method: "POST",
  path: `${base}/{sessionId}/renew`,
  tag: "Runtime",
  summary: "Extend the session's lease from now (never past the license's end) and answer a fresh token",
  auth: licenseSession,
  params: ZSessionParams,
  response: ZRenewResponse,
  errors: [
    ...sessionErrors,
    "license.no_seat_available",
    "license.expired",
    "license.trial_expired",
    "license.subscription_lapsed",
  ],
});

export const checkInSessionContract = defineContract({
  method: "POST",
  path: `${base}/{sessionId}/check-in`,
  tag: "Runtime",
  summary:
    "Heartbeat: records contact; keeps an inactivity-based seat for another inactivityTimeout; answers lease, grace and next check-in",
  auth: licenseSession,
  params: ZSessionParams,
  response: ZSessionLeaseResponse,
  errors: [...sessionErrors, "license.no_seat_available"],
});

export const releaseSessionContract = defineContract({
  method: "POST",
  path: `${base}/{sessionId}/release`,
  tag: "Runtime",
  summary: "Release the seat: the session ends and Entitlement.SeatReleased is emitted",
  auth: licenseSession,
  params: ZSessionParams,
  response: ZSessionLeaseResponse,
  errors: sessionErrors,
});
