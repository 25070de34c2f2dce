import type { Entitlement } from "../../../db/generated/client.ts";
import { AppError } from "../../../core/errors.ts";
import type { LicenseState } from "../tokens/license-token.ts";

/**
 * Whether the license may run at `at`, and in which state (activation and renew both judge it):
 * a lapsed subscription stops it; past its expiration a trial is over, and any other license runs
 * in `Grace` for gracePeriod and then has expired.
 */
export function licenseState(
  e: Pick<Entitlement, "subscriptionStatus" | "expirationDateTime" | "isEntitlementTrial">,
  graceMs: number,
  at: Date,
): LicenseState {
  if (e.subscriptionStatus === "Lapsed")
    throw new AppError("license.subscription_lapsed", "The license's subscription has lapsed.");
  if (!e.expirationDateTime || at < e.expirationDateTime) return e.isEntitlementTrial ? "Trial" : "Active";
  if (e.isEntitlementTrial)
    throw new AppError("license.trial_expired", `The trial ended at ${e.expirationDateTime.toISOString()}.`);
  if (at.getTime() >= e.expirationDateTime.getTime() + graceMs)
    throw new AppError("license.expired", `The license expired at ${e.expirationDateTime.toISOString()}.`);
  return "Grace";
}

/** Step 2: activations enabled, validity window, then subscription, expiry, trial and grace. */
export function licenseStateAt(e: Entitlement, graceMs: number, at: Date): LicenseState {
  if (!e.activationsEnabled)
    throw new AppError("license.activations_disabled", "Activations are disabled on this license.");
  if (e.notValidBeforeDateTime && at < e.notValidBeforeDateTime)
    throw new AppError(
      "license.not_yet_valid",
      `The license is valid from ${e.notValidBeforeDateTime.toISOString()}.`,
    );
  return licenseState(e, graceMs, at);
}

/** The state an idempotent replay reports: nothing is decided again. */
export const replayState = (e: Entitlement, at: Date): LicenseState =>
  e.isEntitlementTrial ? "Trial" : e.expirationDateTime && at >= e.expirationDateTime ? "Grace" : "Active";
