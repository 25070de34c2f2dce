import { z } from "zod";

/**
 * What consumers may add to one balance of a license by the consumer credit grant, when the
 * offer (copied to its entitlements) leaves a limit unset (docs/decisions.md "Consumer credit
 * grant limits"): small enough that a customer cannot hand themselves an unbounded balance, large
 * enough for an ordinary top-up.
 */
export const DEFAULT_CONSUMER_GRANT_LIMITS = { perGrant: 1_000, perMonth: 10_000 } as const;

/** A limit set by staff: positive credits with at most 6 decimals; null takes the default. */
const ZGrantLimit = z
  .number()
  .finite()
  .positive("A limit must be greater than 0.")
  .max(1e12)
  .refine((v) => Math.abs(v * 1e6 - Math.round(v * 1e6)) < 1e-6, "At most 6 decimal places.")
  .nullable()
  .default(null);

/** The offer and direct-entitlement fields (offer.schemas.ts templateFields). */
export const consumerGrantLimitFields = {
  /** Most credits one consumer credit grant may add; null = DEFAULT_CONSUMER_GRANT_LIMITS.perGrant. */
  consumerGrantLimitPerGrant: ZGrantLimit,
  /** Most credits consumer grants may add to one balance per calendar month (UTC); null = the default. */
  consumerGrantLimitPerMonth: ZGrantLimit,
};

type StoredLimits = {
  consumerGrantLimitPerGrant: { toNumber(): number } | null;
  consumerGrantLimitPerMonth: { toNumber(): number } | null;
};

/** The limits in force on an entitlement (or an offer): its own where set, else the defaults. */
export function consumerGrantLimits(row: StoredLimits) {
  return {
    perGrant: row.consumerGrantLimitPerGrant?.toNumber() ?? DEFAULT_CONSUMER_GRANT_LIMITS.perGrant,
    perMonth: row.consumerGrantLimitPerMonth?.toNumber() ?? DEFAULT_CONSUMER_GRANT_LIMITS.perMonth,
  };
}

/** The stored value of a limit field (null stays null), for create and update data. */
export const storedLimit = (value: number | null | undefined) =>
  value === undefined ? undefined : value === null ? null : value.toFixed(6);

/** The stored limits as response numbers (null where unset). */
export function limitFieldsOf(row: StoredLimits) {
  return {
    consumerGrantLimitPerGrant: row.consumerGrantLimitPerGrant?.toNumber() ?? null,
    consumerGrantLimitPerMonth: row.consumerGrantLimitPerMonth?.toNumber() ?? null,
  };
}

/** Start of the calendar month (UTC) that `at` falls in: the period of the per-month limit. */
export function grantPeriodStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}
