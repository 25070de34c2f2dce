import { sqlOf } from "../../../db/sql.ts";
import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { nextScheduledInstants } from "../auto-balance/auto-balance-schedule.ts";
import { remainingOf, rungAt, severityAt } from "../consumption/ladder.ts";
import { LIFETIME, periodOf } from "../periods/period.ts";
import { micros, toNumber, ZERO } from "../quantity.ts";
import { entitlementMeters } from "./meter-terms.ts";
import { READ_BALANCE_VIEWS, toBalanceView } from "./read-meter.ts";
import type { TEntitlementMeter, TMeterPeriodPoint } from "./meter.schemas.ts";

const num = (v: { toString(): string } | null | undefined) => (v ? toNumber(micros(v.toString())) : 0);

/**
 * An entitlement's meters as they stand (back office and portal): terms, the current period's
 * figures, the last reported severity, the balance and, for a scheduled balance, its next five
 * auto-balance instants. Computed afresh (not from the hot paths' cache).
 */
export async function listEntitlementMeters(
  ctx: DomainContext,
  entitlementId: string,
): Promise<TEntitlementMeter[]> {
  const meters = await entitlementMeters(ctx.db, ctx.tenantId, entitlementId, { refresh: true });
  if (!meters) throw notFound("Entitlement");
  const at = now();
  const terms = [...meters.meters.values()].sort((a, b) => a.metricName.localeCompare(b.metricName));
  const periods = terms.map((t) => (t.kind === "Metered" ? periodOf(t, meters.anchorAt, at) : LIFETIME));
  const [assets, rows, metered, balances] = await Promise.all([
    ctx.db.monitoredAsset.findMany({
      where: { id: { in: terms.map((t) => t.monitoredAssetId) } },
      select: { id: true, name: true, unit: true },
    }),
    ctx.db.meterPeriod.findMany({
      where: {
        OR: terms.map((t, i) => ({ monitoredAssetId: t.monitoredAssetId, periodKey: periods[i].key })),
      },
    }),
    ctx.db.meteredUsage.findMany({
      where: { id: { in: terms.flatMap((t) => (t.meteredUsageId ? [t.meteredUsageId] : [])) } },
      select: { id: true, lastReportedOverageSeverityStatus: true, suspendedUntilAt: true },
    }),
    sqlOf(ctx.db).query<any>({ name: "metering.read_balance_views", text: READ_BALANCE_VIEWS }, [
      ctx.tenantId,
      terms.flatMap((t) => (t.balanceUsageId ? [t.balanceUsageId] : [])),
    ]),
  ]);
  const assetById = new Map(assets.map((a) => [a.id, a]));
  const periodByAsset = new Map(rows.map((r) => [r.monitoredAssetId, r]));
  const meteredById = new Map(metered.map((m) => [m.id, m]));
  const balanceById = new Map(balances.map((r) => [r.id as string, r]));
  return terms.map((t, i) => {
    const row = periodByAsset.get(t.monitoredAssetId);
    const balanceRow = t.balanceUsageId ? balanceById.get(t.balanceUsageId) : undefined;
    const balance = balanceRow ? toBalanceView(t.metricName, balanceRow) : null;
    const usage = row ? micros(row.usage.toString()) : ZERO;
    const mu = t.meteredUsageId ? meteredById.get(t.meteredUsageId) : undefined;
    const remaining = remainingOf(t.ladder, usage);
    const isBalance = t.kind === "Balance" && balance;
    return {
      monitoredAssetId: t.monitoredAssetId,
      metricName: t.metricName,
      name: assetById.get(t.monitoredAssetId)?.name ?? t.metricName,
      unit: assetById.get(t.monitoredAssetId)?.unit ?? "",
      usageKind: t.kind,
      metricType: t.metricType,
      consumptionPeriod: t.consumptionPeriod,
      periodAnchor: t.periodAnchor,
      accumulationMethod: t.accumulationMethod,
      featureCode: t.featureCode,
      featureEnabled: t.featureEnabled,
      percentageBased: t.ladder.percentageBased,
      tiers: t.ladder.rungs.map((r) => ({
        name: r.name,
        start: toNumber(r.start),
        end: r.end === null ? null : toNumber(r.end),
        quotaUsagePolicy: r.policy,
        severity: r.severity,
        baseCredits: toNumber(r.baseCredits),
        creditsPerUnitOfConsumption: toNumber(r.creditsPerUnit),
        fundingBalanceMetric: r.fundingBalanceMetric,
      })),
      current: {
        periodKey: periods[i].key,
        periodStart: periods[i].start?.toISOString() ?? null,
        periodEnd: periods[i].end?.toISOString() ?? null,
        usage: isBalance ? balance.creditsUsed : toNumber(usage),
        consumedUsage: isBalance ? balance.creditsUsed : num(row?.consumedUsage),
        reportedUsage: isBalance ? 0 : num(row?.reportedUsage),
        limit: isBalance
          ? balance.isUnlimitedCredits
            ? null
            : balance.totalCredits
          : t.ladder.limit === null
            ? null
            : toNumber(t.ladder.limit),
        remaining: isBalance ? balance.remainingCredits : remaining === null ? null : toNumber(remaining),
        tierName: isBalance ? null : (rungAt(t.ladder, usage)?.name ?? null),
        severity: isBalance ? balance.severity : severityAt(t.ladder, usage),
        creditsCharged: num(row?.creditsCharged),
      },
      lastReportedSeverity: isBalance
        ? balance.overageSeverityStatus
        : (mu?.lastReportedOverageSeverityStatus ?? "None"),
      suspendedUntilAt: (isBalance ? balance.suspendedUntilAt : mu?.suspendedUntilAt?.toISOString()) ?? null,
      balance,
      autoBalancePreview: balance?.autoBalanceCronSchedule
        ? nextScheduledInstants(balance.autoBalanceCronSchedule, at).map((d) => d.toISOString())
        : [],
    };
  });
}

/** The meter's usage per period, oldest first (the last `limit` periods): the usage chart. */
export async function meterHistory(
  ctx: DomainContext,
  entitlementId: string,
  metricName: string,
  limit = 24,
): Promise<TMeterPeriodPoint[]> {
  const asset = await ctx.db.monitoredAsset.findFirst({
    where: { ownerKind: "Entitlement", entitlementId, metricName },
    select: { id: true },
  });
  if (!asset) throw notFound(`Metric "${metricName}" on the entitlement`);
  const rows = await ctx.db.meterPeriod.findMany({
    where: { monitoredAssetId: asset.id },
    orderBy: [{ periodStart: { sort: "desc", nulls: "last" } }],
    take: limit,
  });
  return rows.reverse().map((r) => ({
    periodKey: r.periodKey,
    periodStart: r.periodStart?.toISOString() ?? null,
    periodEnd: r.periodEnd?.toISOString() ?? null,
    usage: num(r.usage),
    consumedUsage: num(r.consumedUsage),
    reportedUsage: num(r.reportedUsage),
    creditsCharged: num(r.creditsCharged),
    consumeCount: r.consumeCount,
    recordCount: r.recordCount,
  }));
}
