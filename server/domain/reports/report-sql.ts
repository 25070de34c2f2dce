/**
 * SQL and arithmetic the reports share. Report statements are module-level texts with `$n`
 * parameters (the tenant always `$1`), run through the tenant's client for aggregates and through a
 * cursor for CSV exports, so both read the same rows.
 */

/**
 * Calendar months since year 0 at the instant `t`, counting the current month's elapsed fraction
 * (UTC): the months active between a and b are monthIndex(b) − monthIndex(a). A whole calendar
 * month is exactly 1, whatever its length; a part of a month counts by its share of that month.
 */
export const monthIndex = (t: string) => {
  const u = `((${t}) AT TIME ZONE 'UTC')`;
  const month = `date_trunc('month', ${u})`;
  // date_part is double precision (extract is numeric, several times slower over 100k rows): whole
  // months and the halves of even months stay exact, and every sum is rounded to 6 decimals.
  return `(date_part('year', ${u}) * 12 + date_part('month', ${u}) - 1 + date_part('epoch', ${u} - ${month}) / date_part('epoch', ${month} + interval '1 month' - ${month}))`;
};

/**
 * The peak of overlapping weighted intervals per bucket. `intervals` is a query with columns `s`,
 * `e` (already cut to the period, e > s) and `w`; `$bounds` names the width_bucket bounds
 * parameter. Intervals are half-open: at one instant ends count before starts. Answers, per bucket
 * that has changes: the highest level reached inside it, the level after its last change and the
 * time of its first change (the caller carries the level through buckets without changes).
 */
export const peakPerBucketSql = (intervals: string, bounds: string, to: string) => `
  WITH intervals AS (${intervals}),
  changes AS (
    SELECT s AS t, w AS d FROM intervals UNION ALL SELECT e AS t, -w AS d FROM intervals
  ),
  net AS (SELECT t, sum(d) AS d FROM changes GROUP BY t),
  levels AS (SELECT t, sum(d) OVER (ORDER BY t) AS level FROM net)
  SELECT width_bucket(t, ${bounds}::timestamptz[]) AS bucket,
         max(level)::int AS peak,
         (array_agg(level ORDER BY t DESC))[1]::int AS "lastLevel",
         min(t) AS "firstChangeAt"
  FROM levels WHERE t < ${to}::timestamptz
  GROUP BY 1 ORDER BY 1`;

export type BucketPeakRow = { bucket: number; peak: number; lastLevel: number; firstChangeAt: Date };

/** Carries levels through buckets without changes: the peak of each bucket of `count`. */
export function carryPeaks(rows: BucketPeakRow[], bucketStarts: Date[]): number[] {
  const byBucket = new Map(rows.map((r) => [Number(r.bucket), r]));
  let level = 0;
  return bucketStarts.map((start, i) => {
    const row = byBucket.get(i + 1);
    if (!row) return level;
    // A change exactly at the bucket's start replaces the carried level (half-open intervals).
    const carried = new Date(row.firstChangeAt).getTime() === start.getTime() ? row.peak : level;
    level = row.lastLevel;
    return Math.max(row.peak, carried);
  });
}

const MICRO = 1_000_000n;

/** A decimal string with at most 6 fraction digits (as the reports' SQL rounds them) in millionths. */
export function toMicros(text: string | null): bigint {
  if (text === null) return 0n;
  const negative = text.startsWith("-");
  const [whole, fraction = ""] = (negative ? text.slice(1) : text).split(".");
  const micros = BigInt(whole || "0") * MICRO + BigInt((fraction + "000000").slice(0, 6));
  return negative ? -micros : micros;
}

/** Millionths as a number rounded half away from zero to `digits` fraction digits (0–6). */
export function microsToNumber(micros: bigint, digits: number): number {
  const step = 10n ** BigInt(6 - digits);
  const negative = micros < 0n;
  const abs = negative ? -micros : micros;
  const rounded = ((abs + step / 2n) / step) * step;
  const value = Number(rounded) / 1_000_000;
  return negative ? -value : value;
}

/** Minor-unit digits of an ISO 4217 currency (2 for EUR, 0 for JPY, 3 for BHD). */
export function currencyDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2;
  }
}
