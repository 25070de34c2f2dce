/**
 * How long an anonymous try runs and how long its data stays (docs/decisions.md "Entitlements",
 * anonymous try): the offer's validityDays or expirationDateTime, else this default; the data is
 * kept this long after the try ends, so a user who registers or buys shortly after can still
 * convert it, and is purged by the worker afterwards.
 */
export const ANONYMOUS_TRY_DEFAULT_DAYS = 14;
export const ANONYMOUS_TRY_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;

export const anonymousTryPurgeDueAt = (expiration: Date): Date =>
  new Date(expiration.getTime() + ANONYMOUS_TRY_RETENTION_DAYS * DAY_MS);

/** The end of a try issued at `at` from an offer. */
export function anonymousTryExpiration(
  offer: { validityDays: number | null; expirationDateTime: Date | null },
  at: Date,
): Date {
  if (offer.validityDays) return new Date(at.getTime() + offer.validityDays * DAY_MS);
  if (offer.expirationDateTime) return offer.expirationDateTime;
  return new Date(at.getTime() + ANONYMOUS_TRY_DEFAULT_DAYS * DAY_MS);
}
