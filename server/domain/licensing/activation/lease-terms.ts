import type { Entitlement } from "../../../db/generated/client.ts";
import { isoDurationMillis } from "../../catalog/iso-duration.ts";
import type { TClaimBasedActivation } from "../../entitlements/entitlement/policies.schemas.ts";
import type { LicenseState } from "../tokens/license-token.ts";

/** An offline activation cannot renew: without an expiration date on the license it runs this long. */
export const OFFLINE_LEASE_MS = 365 * 24 * 60 * 60 * 1000;

export const durationMs = (duration: string | null | undefined) =>
  duration ? (isoDurationMillis(duration) ?? 0) : 0;

const earliest = (...dates: (Date | null)[]) =>
  new Date(Math.min(...dates.filter((d): d is Date => d !== null).map((d) => d.getTime())));

export type LeaseTerms = {
  leaseExpiresAt: Date;
  graceExpiresAt: Date;
  seatHeldUntil: Date;
  /** The license's own end for this session (expiration, or the end of its grace), null when open. */
  validUntil: Date | null;
  nextCheckInDueAt: Date | null;
};

/**
 * A session's lease from `at` (docs/decisions.md "Seats and leases"): the lease runs leaseTime
 * (never past the license's end); grace runs gracePeriod after the lease (never past the
 * license's grace; a trial has none); the seat is held for the lease, and for an
 * inactivity-based license only until inactivityTimeout after this contact. An offline session
 * leases until the license ends.
 */
export function leaseTerms(
  e: Pick<Entitlement, "expirationDateTime" | "isEntitlementTrial">,
  claims: TClaimBasedActivation,
  kind: "Online" | "Offline",
  state: LicenseState,
  at: Date,
): LeaseTerms {
  const graceMs = durationMs(claims.gracePeriod);
  const end = e.expirationDateTime;
  const lastGrace = end ? new Date(end.getTime() + (e.isEntitlementTrial ? 0 : graceMs)) : null;
  const validUntil = end ? (state === "Grace" ? lastGrace : end) : null;
  const leaseExpiresAt =
    kind === "Offline"
      ? (validUntil ?? new Date(at.getTime() + OFFLINE_LEASE_MS))
      : earliest(new Date(at.getTime() + durationMs(claims.leaseTime)), validUntil);
  const graceExpiresAt = earliest(new Date(leaseExpiresAt.getTime() + graceMs), lastGrace);
  return { leaseExpiresAt, graceExpiresAt, validUntil, ...contactTerms(claims, leaseExpiresAt, at) };
}

/** What a contact (activation, renew, check-in) sets beside the lease: the seat hold and the next check-in. */
export function contactTerms(
  claims: TClaimBasedActivation,
  leaseExpiresAt: Date,
  at: Date,
): { seatHeldUntil: Date; nextCheckInDueAt: Date | null } {
  const inactivityMs = claims.isInactivityBased ? durationMs(claims.inactivityTimeout) : 0;
  const seatHeldUntil =
    inactivityMs > 0 ? earliest(leaseExpiresAt, new Date(at.getTime() + inactivityMs)) : leaseExpiresAt;
  const intervalMs = claims.checkInInterval
    ? durationMs(claims.checkInInterval)
    : inactivityMs > 0
      ? Math.floor(inactivityMs / 2)
      : 0;
  return {
    seatHeldUntil,
    nextCheckInDueAt: intervalMs > 0 ? earliest(new Date(at.getTime() + intervalMs), seatHeldUntil) : null,
  };
}
