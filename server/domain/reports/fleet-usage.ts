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

  const [byStart, top, meters, balances] = await Promise.all([
    ctx.db.meterPeriod.groupBy({ by: ["periodStart"], where: inPeriod, _sum: { usage: true } }),
    ctx.db.meterPeriod.groupBy({
      by: ["entitlementId"],
      where: inPeriod,
      _sum: { usage: true },
      orderBy: { _sum: { usage: "desc" } },
      take: TOP,
    }),
    ctx.db.meteredUsage.findMany({
      where: {
        lastReportedOverageSeverityStatus: { in: [...severityBands] },
        monitoredAsset: { ownerKind: "Entitlement" },
      },
      select: {
        lastReportedOverageSeverityStatus: true,
        monitoredAsset: { select: { entitlementId: true, metricName: true } },
      },
      take: 1000,
    }),
    ctx.db.balanceUsage.findMany({
      where: {
        overageSeverityStatus: { in: [...severityBands] },
        monitoredAsset: { ownerKind: "Entitlement" },
      },
      select: {
        overageSeverityStatus: true,
        monitoredAsset: { select: { entitlementId: true, metricName: true } },
      },
      take: 1000,
    }),
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

  const flagged = [
    ...meters.map((m) => ({
      severity: m.lastReportedOverageSeverityStatus,
      kind: "meter" as const,
      asset: m.monitoredAsset,
    })),
    ...balances.map((b) => ({
      severity: b.overageSeverityStatus,
      kind: "balance" as const,
      asset: b.monitoredAsset,
    })),
  ].filter((f) => f.asset.entitlementId !== null);
  const ids = [
    ...new Set([...top.map((t) => t.entitlementId), ...flagged.map((f) => f.asset.entitlementId!)]),
  ];
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
      const inBand = flagged
        .filter((f) => f.severity === severity)
        .map((f) => ({
          entitlementId: f.asset.entitlementId!,
          entitlementName: names.get(f.asset.entitlementId!) ?? "",
          metricName: f.asset.metricName,
          kind: f.kind,
        }))
        .sort(
          (a, b) =>
            a.entitlementName.localeCompare(b.entitlementName) || a.metricName.localeCompare(b.metricName),
        );
      return { severity, count: inBand.length, items: inBand.slice(0, PER_BAND) };
    }),
    generatedAt: now().toISOString(),
  };
}
