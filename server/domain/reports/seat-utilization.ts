import { z } from "zod";
import type { DomainContext } from "../context.ts";
import { queryReport, streamRows } from "../../db/report-queries.ts";
import {
  bucketBounds,
  periodBuckets,
  resolvePeriod,
  exportFilename,
  seriesHeader,
  ZReportBucket,
  ZReportSeriesHeader,
  ZReportSeriesQuery,
  type TReportSeriesQuery,
} from "./report-period.ts";
import { carryPeaks, peakPerBucketSql, type BucketPeakRow } from "./report-sql.ts";
import { csvExport } from "./report-export.ts";

/**
 * Seat utilisation over time, across the tenant's licenses (docs/decisions.md "Reports"). A
 * session holds a seat from activation until it is revoked or its seat hold runs out, whichever is
 * first (half-open), as the one-license live-seats chart counts it
 * (licensing/sessions/seat-utilization.ts); here the sweep runs in SQL over every session. Each
 * bucket reports the most seats held at once inside it, against the seats of the licenses in force
 * then (Published or later archived, inside their validity window); each license's own peak
 * against its numberOfSeats ranks the most utilised ones.
 */
export const ZSeatUtilizationReportQuery = ZReportSeriesQuery;

/** Session seat holds cut to the period: $1 tenant, $2 from, $3 to, $4 entitlement, $5 product. */
const SESSION_INTERVALS = `
  SELECT * FROM (
    SELECT ls."entitlementId" AS eid,
           greatest(ls."activatedAt", $2::timestamptz) AS s,
           least(CASE WHEN ls."revokedAt" < ls."seatHeldUntil" THEN ls."revokedAt" ELSE ls."seatHeldUntil" END,
                 $3::timestamptz) AS e,
           1 AS w
    FROM "LicenseSession" ls
    WHERE ls."tenantId" = $1::uuid AND ls."activatedAt" < $3::timestamptz AND ls."seatHeldUntil" > $2::timestamptz
      AND (ls."revokedAt" IS NULL OR ls."revokedAt" > $2::timestamptz)
      AND ($4::uuid IS NULL OR ls."entitlementId" = $4::uuid)
      AND ($5::uuid IS NULL OR ls."productIds" @> ARRAY[$5::uuid])
  ) held WHERE e > s`;

const SEATS = `coalesce((en."claimBasedActivation"->>'numberOfSeats')::int, 1)`;

/** Seats of the licenses in force, as weighted intervals. */
const CAPACITY_INTERVALS = `
  SELECT * FROM (
    SELECT greatest(coalesce(en."notValidBeforeDateTime", en."createdAt"), en."createdAt", $2::timestamptz) AS s,
           least(coalesce(en."expirationDateTime", $3::timestamptz), coalesce(en."archivedAt", $3::timestamptz),
                 $3::timestamptz) AS e,
           ${SEATS} AS w
    FROM "Entitlement" en
    WHERE en."tenantId" = $1::uuid AND en.status IN ('Published', 'Archived')
      AND ($4::uuid IS NULL OR en.id = $4::uuid)
      AND ($5::uuid IS NULL OR $5::uuid = ANY(en."productIds"))
  ) in_force WHERE e > s`;

export const SEATS_IN_USE_BY_BUCKET_SQL = peakPerBucketSql(SESSION_INTERVALS, "$6", "$3");
export const SEAT_CAPACITY_BY_BUCKET_SQL = peakPerBucketSql(CAPACITY_INTERVALS, "$6", "$3");

/** Each license's peak seats in the period against its seats, most utilised first; $6 limits (null: all). */
export const SEAT_UTILIZATION_BY_ENTITLEMENT_SQL = `
  WITH intervals AS (${SESSION_INTERVALS}),
  changes AS (
    SELECT eid, s AS t, 1 AS d FROM intervals UNION ALL SELECT eid, e AS t, -1 AS d FROM intervals
  ),
  levels AS (SELECT eid, d, sum(d) OVER (PARTITION BY eid ORDER BY t, d) AS level FROM changes),
  peaks AS (
    SELECT eid, max(level)::int AS peak, (count(*) FILTER (WHERE d > 0))::int AS sessions
    FROM levels GROUP BY eid
  ),
  ranked AS (
    SELECT en.id AS "entitlementId", en.name AS "entitlementName", ${SEATS} AS "numberOfSeats",
           p.peak AS "peakSeatsInUse", p.sessions
    FROM peaks p JOIN "Entitlement" en ON en.id = p.eid AND en."tenantId" = $1::uuid
  )
  SELECT r.*, round(r."peakSeatsInUse"::numeric / nullif(r."numberOfSeats", 0), 4)::float8 AS utilization,
         count(*) OVER ()::int AS "withSessions",
         (count(*) FILTER (WHERE r."peakSeatsInUse" >= r."numberOfSeats") OVER ())::int AS "atCapacity"
  FROM ranked r
  ORDER BY utilization DESC NULLS LAST, r."peakSeatsInUse" DESC, r."entitlementId"
  LIMIT $6`;

/**
 * Running seat levels of weighted intervals (`s`, `e`, `w`): one sort by time with ends before
 * starts at the same instant (half-open intervals), no grouping by instant first. A row's level is
 * a real level when it is a start (every end at that instant is already counted, and starts only
 * add) or the last change at its instant; an end followed by more changes at the same instant is
 * not (`real`).
 */
const runningLevels = (intervals: string) => `
    SELECT t, level, n, d > 0 OR next_t IS DISTINCT FROM t AS real FROM (
      SELECT t, d, sum(d) OVER w AS level, row_number() OVER w AS n, lead(t) OVER w AS next_t
      FROM (SELECT s AS t, w AS d FROM ${intervals} UNION ALL SELECT e, -w FROM ${intervals}) c
      WINDOW w AS (ORDER BY t, d ROWS UNBOUNDED PRECEDING)
    ) r`;

/** Per bucket: the highest level, the level after its last change, its first change (one hash pass). */
const bucketPeaks = (levels: string) => `
    SELECT width_bucket(t, $6::timestamptz[]) AS bucket, (max(level) FILTER (WHERE real))::int AS peak,
           ((max(ARRAY[n, level]))[2])::int AS "lastLevel", min(t) AS "firstChangeAt"
    FROM ${levels} WHERE t < $3::timestamptz GROUP BY 1`;

/**
 * The whole report in one statement, $1–$6 as above and $7 the ranking's limit: the sessions of
 * the period are read once (`held`, materialized) for both the series and the ranking, the
 * licenses once for the capacity. Before, three statements in three Prisma transactions read the
 * sessions twice at once, and on 200,000 sessions outlived the transactions' 15 s (a 500,
 * docs/performance.md "Seat utilisation at 200,000 sessions").
 */
export const SEAT_UTILIZATION_REPORT_SQL = `
  WITH held AS MATERIALIZED (${SESSION_INTERVALS}),
  capacity AS MATERIALIZED (${CAPACITY_INTERVALS}),
  use_levels AS (${runningLevels("held")}),
  cap_levels AS (${runningLevels("capacity")}),
  in_use AS (${bucketPeaks("use_levels")}),
  seat_capacity AS (${bucketPeaks("cap_levels")}),
  changes AS (SELECT eid, s AS t, 1 AS d FROM held UNION ALL SELECT eid, e AS t, -1 AS d FROM held),
  levels AS (SELECT eid, d, sum(d) OVER (PARTITION BY eid ORDER BY t, d) AS level FROM changes),
  peaks AS (
    SELECT eid, max(level)::int AS peak, (count(*) FILTER (WHERE d > 0))::int AS sessions
    FROM levels GROUP BY eid
  ),
  ranked AS (
    SELECT en.id AS "entitlementId", en.name AS "entitlementName", ${SEATS} AS "numberOfSeats",
           p.peak AS "peakSeatsInUse", p.sessions,
           round(p.peak::numeric / nullif(${SEATS}, 0), 4)::float8 AS utilization
    FROM peaks p JOIN "Entitlement" en ON en.id = p.eid AND en."tenantId" = $1::uuid
  )
  SELECT 'inUse' AS part, bucket, peak, "lastLevel", "firstChangeAt", NULL::uuid AS "entitlementId",
         NULL AS "entitlementName", NULL::int AS "numberOfSeats", NULL::int AS "peakSeatsInUse",
         NULL::int AS sessions, NULL::float8 AS utilization, NULL::int AS "withSessions", NULL::int AS "atCapacity"
  FROM in_use
  UNION ALL
  SELECT 'capacity', bucket, peak, "lastLevel", "firstChangeAt", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
  FROM seat_capacity
  UNION ALL
  SELECT * FROM (
    SELECT 'ranked', NULL::int, NULL::int, NULL::int, NULL::timestamptz, r."entitlementId", r."entitlementName",
           r."numberOfSeats", r."peakSeatsInUse", r.sessions, r.utilization,
           count(*) OVER ()::int, (count(*) FILTER (WHERE r."peakSeatsInUse" >= r."numberOfSeats") OVER ())::int
    FROM ranked r
    ORDER BY r.utilization DESC NULLS LAST, r."peakSeatsInUse" DESC, r."entitlementId"
    LIMIT $7
  ) top`;

type ReportRow = BucketPeakRow & EntitlementRow & { part: "inUse" | "capacity" | "ranked" };

type EntitlementRow = {
  entitlementId: string;
  entitlementName: string;
  numberOfSeats: number;
  peakSeatsInUse: number;
  sessions: number;
  utilization: number | null;
  withSessions: number;
  atCapacity: number;
};

const ZEntitlementUtilization = z.object({
  entitlementId: z.string().uuid(),
  entitlementName: z.string(),
  numberOfSeats: z.number().int(),
  peakSeatsInUse: z.number().int(),
  sessions: z.number().int(),
  /** peakSeatsInUse / numberOfSeats (4 decimals); null for a license of 0 seats. */
  utilization: z.number().nullable(),
});

export const ZSeatUtilizationReport = ZReportSeriesHeader.extend({
  buckets: z.array(
    ZReportBucket.extend({
      /** Most seats held at once inside the bucket. */
      peakSeatsInUse: z.number().int(),
      /** Most seats the licenses in force offered at once inside the bucket. */
      seatCapacity: z.number().int(),
      /** peakSeatsInUse / seatCapacity (4 decimals); null without capacity. */
      utilization: z.number().nullable(),
    }),
  ),
  summary: z.object({
    peakSeatsInUse: z.number().int(),
    peakSeatCapacity: z.number().int(),
    entitlementsWithSessions: z.number().int(),
    /** Licenses whose peak reached their numberOfSeats. */
    entitlementsAtCapacity: z.number().int(),
  }),
  /** The ten most utilised licenses in the period. */
  mostUtilized: z.array(ZEntitlementUtilization),
});
export type TSeatUtilizationReport = z.infer<typeof ZSeatUtilizationReport>;

const MOST_UTILIZED = 10;
const ratio = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1e4) / 1e4 : null);
const entitlementOf = (row: EntitlementRow) => ({
  entitlementId: row.entitlementId,
  entitlementName: row.entitlementName,
  numberOfSeats: row.numberOfSeats,
  peakSeatsInUse: row.peakSeatsInUse,
  sessions: row.sessions,
  utilization: row.utilization,
});

/** GET /admin/reports/seat-utilization. */
export async function seatUtilizationReport(
  ctx: DomainContext,
  query: TReportSeriesQuery,
): Promise<TSeatUtilizationReport> {
  const period = resolvePeriod(query);
  const buckets = periodBuckets(period, query.interval);
  const filters = [
    ctx.tenantId,
    period.from,
    period.to,
    query.entitlementId ?? null,
    query.productId ?? null,
  ];
  const rows = await queryReport<ReportRow>(SEAT_UTILIZATION_REPORT_SQL, [
    ...filters,
    bucketBounds(buckets),
    MOST_UTILIZED,
  ]);
  const inUse = rows.filter((r) => r.part === "inUse");
  const capacity = rows.filter((r) => r.part === "capacity");
  const ranked = rows.filter((r) => r.part === "ranked");
  const starts = buckets.map((b) => b.from);
  const peaks = carryPeaks(inUse, starts);
  const capacities = carryPeaks(capacity, starts);
  return {
    ...seriesHeader(period, query),
    buckets: buckets.map((b, i) => ({
      from: b.from.toISOString(),
      to: b.to.toISOString(),
      peakSeatsInUse: peaks[i],
      seatCapacity: capacities[i],
      utilization: ratio(peaks[i], capacities[i]),
    })),
    summary: {
      peakSeatsInUse: Math.max(0, ...peaks),
      peakSeatCapacity: Math.max(0, ...capacities),
      entitlementsWithSessions: ranked[0]?.withSessions ?? 0,
      entitlementsAtCapacity: ranked[0]?.atCapacity ?? 0,
    },
    mostUtilized: ranked.map(entitlementOf),
  };
}

/** GET /admin/reports/seat-utilization/csv: every license with sessions in the period, most utilised first. */
export const seatUtilizationExport = csvExport<TReportSeriesQuery>({
  key: "seat-utilization",
  query: ZSeatUtilizationReportQuery,
  columns: ["entitlementId", "entitlementName", "numberOfSeats", "peakSeatsInUse", "sessions", "utilization"],
  filename: (query) => exportFilename("seat-utilization", query),
  async *rows(ctx, query) {
    const { from, to } = resolvePeriod(query);
    const values = [ctx.tenantId, from, to, query.entitlementId ?? null, query.productId ?? null, null];
    for await (const batch of streamRows<EntitlementRow>(SEAT_UTILIZATION_BY_ENTITLEMENT_SQL, values))
      yield batch.map(entitlementOf);
  },
});
