import type { Db } from "../../../db/client.ts";
import type { Entitlement, LicenseSession } from "../../../db/generated/client.ts";
import { tenantDb } from "../../../db/tenant-db.ts";
import type { TClaimBasedActivation } from "../../entitlements/entitlement/policies.schemas.ts";
import { countedRateLimits, type PendingRateLimits } from "../../rate-limits/hit-rate-limits.ts";
import type { LicenseState } from "../tokens/license-token.ts";
import type { TActivationRequest } from "./activation.schemas.ts";
import { decideActivation } from "./decide-activation.ts";
import { resolveEntitlement } from "./resolve-entitlement.ts";

export type ActivationMeta = {
  /** `Online` (the application calls) or `Offline` (an operator issues a response artifact). */
  kind: "Online" | "Offline";
  /** The caller's address, for activationPolicy.allowedIpCidr (online only). */
  ip: string | null;
  /** The activation Idempotency-Key, durable on the session. */
  idempotencyKey: string | null;
  /** The signed-in end user, with useInteractiveUser. */
  user: { tenantId: string; id: string } | null;
};

export type ActivationOutcome = {
  tenantId: string;
  entitlement: Entitlement;
  claims: TClaimBasedActivation;
  session: LicenseSession;
  state: LicenseState;
  fingerprintHash: string;
  /** The tenant's active signing key id, read in the activation's own query. */
  activeKid: string | null;
  /** Whether the entitlement has unrevoked add-on grants (read under the lock; saves the token a query). */
  hasGrants: boolean;
  /** A new session (false for a re-activation or an idempotent replay). */
  created: boolean;
};

/**
 * SPEC.md "Runtime surface", activation: the one decision behind /activations/jwt,
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
