import { z } from "zod";
import { AppError } from "../../core/errors.ts";
import { now } from "../../clock.ts";

/**
 * The period every report covers: [from, to), UTC. Either bound is a date (`2026-01-01`, midnight
 * UTC) or a date-time with offset. `to` defaults to the first of next month and `from` to a year
 * before `to`: the last twelve calendar months including the current one.
 */
const ZBound = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

export const reportIntervals = ["day", "week", "month"] as const;
export type ReportInterval = (typeof reportIntervals)[number];

export const ZReportPeriodQuery = z.object({
  from: ZBound.optional(),
  to: ZBound.optional(),
});
export type TReportPeriodQuery = z.infer<typeof ZReportPeriodQuery>;

/** Reports over time add the bucket width and optional narrowing to one entitlement or product. */
export const ZReportSeriesQuery = ZReportPeriodQuery.extend({
  interval: z.enum(reportIntervals).default("month"),
  entitlementId: z.string().uuid().optional(),
  productId: z.string().uuid().optional(),
});
export type TReportSeriesQuery = z.infer<typeof ZReportSeriesQuery>;

export type ReportPeriod = { from: Date; to: Date };
export type ReportBucket = { from: Date; to: Date };

/** Ten years: a longer period is almost certainly a typo, and would scan everything. */
const MAX_PERIOD_MONTHS = 120;
/** Buckets one chart can show legibly; a longer series needs a wider interval. */
export const MAX_BUCKETS = 400;

const monthStart = (d: Date, add = 0) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, 1));

export function resolvePeriod(query: TReportPeriodQuery): ReportPeriod {
  const to = query.to ? new Date(query.to) : monthStart(now(), 1);
  const yearBefore = new Date(to);
  yearBefore.setUTCFullYear(to.getUTCFullYear() - 1);
  const from = query.from ? new Date(query.from) : yearBefore;
  if (from >= to) throw new AppError("report.invalid_period", "`from` must be before `to`.");
  if (to > monthStart(from, MAX_PERIOD_MONTHS + 1))
    throw new AppError("report.invalid_period", `A report covers at most ${MAX_PERIOD_MONTHS} months.`);
  return { from, to };
}

/** The start of the calendar bucket holding `d` (UTC; weeks start on Monday, as ISO 8601). */
function bucketStart(d: Date, interval: ReportInterval): Date {
  if (interval === "month") return monthStart(d);
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  if (interval === "day") return day;
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000);
}

function nextBucket(d: Date, interval: ReportInterval): Date {
  if (interval === "month") return monthStart(d, 1);
  return new Date(d.getTime() + (interval === "day" ? 1 : 7) * 86_400_000);
}

/**
 * Calendar buckets covering [from, to): the first and last are cut at the period's bounds, so the
 * buckets add up to the period exactly.
 */
export function periodBuckets(period: ReportPeriod, interval: ReportInterval): ReportBucket[] {
  const buckets: ReportBucket[] = [];
  let start = period.from;
  while (start < period.to) {
    const end = nextBucket(bucketStart(start, interval), interval);
    buckets.push({ from: start, to: end < period.to ? end : period.to });
    if (buckets.length > MAX_BUCKETS)
      throw new AppError(
        "report.too_many_buckets",
        `The period holds more than ${MAX_BUCKETS} ${interval}s; choose a wider interval or a shorter period.`,
      );
    start = end;
  }
  return buckets;
}

/** The bucket bounds as one array for SQL's width_bucket: every bucket's start, then the period's end. */
export const bucketBounds = (buckets: ReportBucket[]): string[] => [
  ...buckets.map((b) => b.from.toISOString()),
  buckets[buckets.length - 1].to.toISOString(),
];

export const ZReportBucket = z.object({ from: z.string(), to: z.string() });

/** What every report over time answers first: its period, interval and narrowing. */
export const ZReportSeriesHeader = z.object({
  from: z.string(),
  to: z.string(),
  interval: z.enum(reportIntervals),
  generatedAt: z.string(),
  entitlementId: z.string().uuid().nullable(),
  productId: z.string().uuid().nullable(),
});

export const seriesHeader = (period: ReportPeriod, query: TReportSeriesQuery) => ({
  from: period.from.toISOString(),
  to: period.to.toISOString(),
  interval: query.interval,
  generatedAt: now().toISOString(),
  entitlementId: query.entitlementId ?? null,
  productId: query.productId ?? null,
});

/** A CSV export's file name: `<report>_<from>_<to>.csv` (UTC days). */
export function exportFilename(report: string, query: TReportPeriodQuery): string {
  const { from, to } = resolvePeriod(query);
  return `${report}_${from.toISOString().slice(0, 10)}_${to.toISOString().slice(0, 10)}.csv`;
}
