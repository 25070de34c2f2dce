import type { Db } from "../../../db/client.ts";
import { tenantDb } from "../../../db/tenant-db.ts";
import { countedRateLimits, type PendingRateLimits } from "../../rate-limits/hit-rate-limits.ts";
import type { TActivationRequest } from "./activation.schemas.ts";
import { decideActivation } from "./decide-activation.ts";
import { resolveEntitlement } from "./resolve-entitlement.ts";
import type { ActivationMeta, ActivationOutcome } from "./activation-outcome.ts";

export type { ActivationMeta, ActivationOutcome } from "./activation-outcome.ts";

/**
 * docs/api.md "Runtime surface", activation: the one decision behind /activations/jwt,
 * /activations/license and the offline issue, in this order (docs/decisions.md "Activation"):
 * 1. the code (normalized lookup; revoked → 403) or the signed-in user's one license
 *    (resolve-entitlement.ts, which also counts the request's rate limits);
 * 2. the entitlement: Published, activations enabled, validity window, subscription not lapsed,
 *    expiry, trial and grace (license-state.ts);
 * 3. activationPolicy (workflow, user, allowedIpCidr, product code, identification length;
 *    check-policy.ts);
 * 4. the device: pre-registered when required; 5. not blocked (find-device.ts);
 * 6. product end of life (only for a device that never activated);
 * then an existing session of the same code and fingerprint is returned (never a second seat);
 * 7. a free seat; 8. the code's device limit (check-capacity.ts). An Idempotency-Key is checked
 * first under the lock (activation-idempotency.ts). Steps 2-8 run under the entitlement's lock
 * (decide-activation.ts).
 * Events: `Entitlement.Activated` for a new session, `Entitlement.SeatActivated` whenever a seat is taken.
 */
export async function activate(
  base: Db,
  input: TActivationRequest,
  meta: ActivationMeta,
  limits: PendingRateLimits = countedRateLimits,
): Promise<ActivationOutcome> {
  const { tenantId, entitlementId, code } = await resolveEntitlement(base, input, meta, limits);
  return decideActivation(tenantDb(base, tenantId), tenantId, entitlementId, code, input, meta);
}
