import type { Entitlement, LicenseSession } from "../../../db/generated/client.ts";
import type { TClaimBasedActivation } from "../../entitlements/entitlement/policies.schemas.ts";
import type { LicenseState } from "../tokens/license-token.ts";

/** What an activation is given beside its request, and what it decides (activate.ts). */
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
