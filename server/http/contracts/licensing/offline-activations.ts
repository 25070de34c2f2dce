import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZOfflineActivationRequest,
  ZOfflineActivationResponse,
} from "../../../domain/licensing/offline/offline-artifact.schemas.ts";

/**
 * docs/api.md "Operational": the offline issue. Refusals of the activation decision keep their own
 * codeName and status (docs/decisions.md "Offline activation").
 */
export const issueOfflineActivationContract = defineContract({
  method: "POST",
  path: "/api/v1/provision/operational/activations/offline/issue",
  tag: "Offline activation",
  summary:
    "Issue an offline response artifact for a request artifact (schemaVersion 1): runs the activation decision (kind Offline) and answers { signedPayload, signature, kid }. Idempotent on (code, fingerprint, requestedAt): a repeat answers the identical bytes",
  auth: clientScope("offline", "create"),
  body: ZOfflineActivationRequest,
  response: ZOfflineActivationResponse,
  errors: [
    "auth.unauthenticated",
    "auth.insufficient_scope",
    "license.validation_error",
    "license.not_found",
    "license.forbidden_by_policy",
    "license.product_end_of_life",
    "activation_code.revoked",
    "license.activations_disabled",
    "license.not_yet_valid",
    "license.subscription_lapsed",
    "license.trial_expired",
    "license.expired",
    "license.device_signature_invalid",
    "license.product_code_required",
    "license.device_not_registered",
    "license.device_blocked",
    "license.no_seat_available",
    "license.device_limit_reached",
    "license.no_active_session",
    "idempotency.key_reused",
  ],
});
