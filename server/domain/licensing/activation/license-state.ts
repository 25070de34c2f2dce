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
