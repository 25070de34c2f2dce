import { AppError } from "../../../core/errors.ts";
import { micros, toDecimalString, type Micros } from "../quantity.ts";
import type { ClassifiedRecord } from "./classify-records.ts";

/**
 * Usage ceilings (docs/security.md "Round 3", item 4). Meters and balances are numeric(24,6): they
 * hold less than 10^18, and usage upload accepted amounts up to that per record, so two records
 * overflowed a meter (500) and one absurd record from one seat was priced into overage against the
 * credits every seat of the license shares. Each monitored asset bounds what one record and one
 * batch may report of its metric; unset, the service defaults below apply. A batch over a ceiling
 * is refused whole (400 `usage.amount_exceeds_ceiling`) before anything is written.
 */
export const DEFAULT_USAGE_RECORD_CEILING = 1_000_000_000; // 10^9 per record
export const DEFAULT_USAGE_BATCH_CEILING = 1_000_000_000_000; // 10^12 per metric per batch

/** The largest ceiling an asset may set: what a column holds. */
export const MAX_USAGE_CEILING = 999_999_999_999_999_999;

export type UsageCeilings = { record: Micros; batch: Micros };

/** An asset's ceilings in micro-units, its own where set, else the defaults. */
export function usageCeilingsOf(asset: {
  usageRecordCeiling: { toString(): string } | null;
  usageBatchCeiling: { toString(): string } | null;
}): UsageCeilings {
  return {
    record: micros(asset.usageRecordCeiling?.toString() ?? DEFAULT_USAGE_RECORD_CEILING),
    batch: micros(asset.usageBatchCeiling?.toString() ?? DEFAULT_USAGE_BATCH_CEILING),
  };
}

/** Readings (Gauge, Maximum) are levels, not added up: only summed metrics have a batch total. */
const isSummed = (metricType: string) => metricType !== "Gauge" && metricType !== "Maximum";

/**
 * The refusal of a batch that reports more than its metrics' ceilings allow (null: within them).
 * Counted records only: a record that is acknowledged without counting adds nothing.
 */
export function usageCeilingRefusal(classified: readonly ClassifiedRecord[]): AppError | null {
  const totals = new Map<string, Micros>();
  for (const c of classified) {
    if (c.status !== "Counted" || c.amount === null || !c.terms) continue;
    const { ceilings, metricName } = c.terms;
    if (c.amount > ceilings.record)
      return new AppError(
        "usage.amount_exceeds_ceiling",
        `Record ${c.record.transactionId} reports ${toDecimalString(c.amount)} of ${metricName}; one record may report at most ${toDecimalString(ceilings.record)}. Nothing of the batch was recorded.`,
      );
    if (!isSummed(c.terms.metricType)) continue;
    const total = (totals.get(metricName) ?? 0n) + c.amount;
    totals.set(metricName, total);
    if (total > ceilings.batch)
      return new AppError(
        "usage.amount_exceeds_ceiling",
        `The batch reports more than ${toDecimalString(ceilings.batch)} of ${metricName}, the most one batch may report. Nothing of the batch was recorded.`,
      );
  }
  return null;
}

/** PostgreSQL's numeric_value_out_of_range: a counter would pass what its column holds. */
export const isNumericOverflow = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === "22003";

/** A meter or balance the batch would take past what it can hold: refused, nothing written. */
export const meterLimitExceeded = () =>
  new AppError(
    "usage.meter_limit_exceeded",
    "The batch would take a meter or credit balance of the license past the largest amount it holds (10^18); nothing was recorded.",
  );
