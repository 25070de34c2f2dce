import { z } from "zod";
import type { DomainContext } from "../context.ts";
import { now } from "../../clock.ts";
import {
  periodBuckets,
  reportIntervals,
  resolvePeriod,
  ZReportBucket,
  ZReportPeriodQuery,
} from "./report-period.ts";
import { micros, toDecimalString } from "../metering/quantity.ts";
import { queryReport } from "../../db/report-queries.ts";

/**
 * The back office's Usage page: one metric's usage across every customer over time, its top
 * consumers, and the meters and balances whose overage severity is above None now.
 * Read from the meter periods (server/domain/metering: one row per meter and period, kept by every
 * consume and upload), so the page costs one aggregate per question, whatever the ledger holds.
 */
export const ZFleetUsageQuery = ZReportPeriodQuery.extend({
  metricName: z.string().trim().min(1).max(200).optional(),
  interval: z.enum(reportIntervals).default("month"),
});
export type TFleetUsageQuery = z.infer<typeof ZFleetUsageQuery>;

/** Severity bands, most severe first (quotaUsageLevel). */
export const severityBands = ["Critical", "High", "Medium", "Low"] as const;

const TOP = 10;
/** Per band: the page lists the first ones and says how many there are. */
const PER_BAND = 20;

export const ZFleetUsage = z.object({
  metrics: z.array(z.string()),
  metricName: z.string().nullable(),
  from: z.string(),
  to: z.string(),
  interval: z.enum(reportIntervals),
  /** Usage of periods starting in each bucket (a period counts where it starts). */
  series: z.array(ZReportBucket.extend({ usage: z.string() })),
  total: z.string(),
  topConsumers: z.array(
    z.object({ entitlementId: z.string(), entitlementName: z.string(), usage: z.string() }),
  ),
  bands: z.array(
    z.object({
      severity: z.enum(severityBands),
      count: z.number().int(),
      items: z.array(
        z.object({
          entitlementId: z.string(),
          entitlementName: z.string(),
          metricName: z.string(),
          kind: z.enum(["meter", "balance"]),
        }),
      ),
    }),
  ),
  generatedAt: z.string(),
});
export type TFleetUsage = z.infer<typeof ZFleetUsage>;

type FlaggedRow = {
  severity: (typeof severityBands)[number];
  kind: "meter" | "balance";
  entitlementId: string;
  entitlementName: string;
  metricName: string;
  count: number;
};

/**
 * The licenses' meters and balances whose last reported severity is in a band: per band its exact
 * count and its first `$3` by license name and metric, in one statement whatever the fleet's size.
 * $1 tenant, $2 the bands.
 */
const FLAGGED_BY_BAND_SQL = `
  WITH flagged AS (
    SELECT mu."lastReportedOverageSeverityStatus" AS severity, 'meter' AS kind, ma."entitlementId", ma."metricName"
    FROM "MeteredUsage" mu
      JOIN "MonitoredAsset" ma ON ma."tenantId" = $1 AND ma.id = mu."monitoredAssetId"
    WHERE mu."tenantId" = $1 AND mu."lastReportedOverageSeverityStatus" = ANY($2::text[])
      AND ma."ownerKind" = 'Entitlement' AND ma."entitlementId" IS NOT NULL
    UNION ALL
    SELECT bu."overageSeverityStatus", 'balance', ma."entitlementId", ma."metricName"
    FROM "BalanceUsage" bu
      JOIN "MonitoredAsset" ma ON ma."tenantId" = $1 AND ma.id = bu."monitoredAssetId"
    WHERE bu."tenantId" = $1 AND bu."overageSeverityStatus" = ANY($2::text[])
      AND ma."ownerKind" = 'Entitlement' AND ma."entitlementId" IS NOT NULL
  ), ranked AS (
    SELECT f.severity, f.kind, f."entitlementId"::text AS "entitlementId", e.name AS "entitlementName",
      f."metricName",
      row_number() OVER (PARTITION BY f.severity ORDER BY e.name, f."metricName", f.kind) AS rank,
      count(*) OVER (PARTITION BY f.severity)::int AS count
    FROM flagged f JOIN "Entitlement" e ON e."tenantId" = $1 AND e.id = f."entitlementId"
  )
  SELECT severity, kind, "entitlementId", "entitlementName", "metricName", count
  FROM ranked WHERE rank <= $3 ORDER BY severity, rank`;

/** A summed Decimal (null when no row) in millionths, to add exactly. */
const microsOf = (v: { toString(): string } | null) => micros(v?.toString() ?? "0");
/** Answers carry no trailing zeros ("1200", "0.5"). */
const plain = (value: bigint) => toDecimalString(value).replace(/\.?0+$/, "");

export async function fleetUsage(ctx: DomainContext, query: TFleetUsageQuery): Promise<TFleetUsage> {
  const period = resolvePeriod(query);
  const buckets = periodBuckets(period, query.interval);
  const metricRows = await ctx.db.meterPeriod.findMany({
    distinct: ["metricName"],
    select: { metricName: true },
    orderBy: { metricName: "asc" },
    take: 200,
  });
  const metrics = metricRows.map((m) => m.metricName);
  const metricName = query.metricName ?? metrics[0] ?? null;
  const inPeriod = { metricName: metricName ?? "", periodStart: { gte: period.from, lt: period.to } };

  const [byStart, top, flagged] = await Promise.all([
    ctx.db.meterPeriod.groupBy({ by: ["periodStart"], where: inPeriod, _sum: { usage: true } }),
    ctx.db.meterPeriod.groupBy({
      by: ["entitlementId"],
      where: inPeriod,
      _sum: { usage: true },
      orderBy: { _sum: { usage: "desc" } },
      take: TOP,
    }),
    queryReport<FlaggedRow>(FLAGGED_BY_BAND_SQL, [ctx.tenantId, [...severityBands], PER_BAND]),
  ]);

  const perBucket = buckets.map(() => 0n);
  for (const row of byStart) {
    if (!row.periodStart) continue;
    const at = row.periodStart.getTime();
    const i = buckets.findIndex((b) => at >= b.from.getTime() && at < b.to.getTime());
    if (i >= 0) perBucket[i] += microsOf(row._sum.usage);
  }
  const series = buckets.map((b, i) => ({
    from: b.from.toISOString(),
    to: b.to.toISOString(),
    usage: plain(perBucket[i]),
  }));

  const ids = [...new Set(top.map((t) => t.entitlementId))];
  const names = new Map(
    (await ctx.db.entitlement.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } })).map(
      (e) => [e.id, e.name],
    ),
  );

  return {
    metrics,
    metricName,
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    interval: query.interval,
    series,
    total: plain(perBucket.reduce((a, b) => a + b, 0n)),
    topConsumers: top.map((t) => ({
      entitlementId: t.entitlementId,
      entitlementName: names.get(t.entitlementId) ?? "",
      usage: plain(microsOf(t._sum?.usage ?? null)),
    })),
    bands: severityBands.map((severity) => {
      const inBand = flagged.filter((f) => f.severity === severity);
      return {
        severity,
        count: inBand[0]?.count ?? 0,
        items: inBand.map(({ entitlementId, entitlementName, metricName, kind }) => ({
          entitlementId,
          entitlementName,
          metricName,
          kind,
        })),
      };
    }),
    generatedAt: now().toISOString(),
  };
}
