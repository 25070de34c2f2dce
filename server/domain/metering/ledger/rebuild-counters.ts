import type { DomainContext } from "../../context.ts";
import { micros, toDecimalString, type Micros } from "../quantity.ts";

export type RebuiltPeriod = {
  monitoredAssetId: string;
  periodKey: string;
  usage: string;
  consumedUsage: string;
  reportedUsage: string;
  creditsPriced: string;
  creditsCharged: string;
  consumeCount: number;
  recordCount: number;
};

export type RebuiltBalance = {
  balanceUsageId: string;
  totalCredits: string;
  creditsUsed: string;
  cumulativeCreditsUsed: string;
  unfundedCredits: string;
};

const dec = (v: { toString(): string } | null | undefined): Micros => (v ? micros(v.toString()) : 0n);

/**
 * docs/architecture.md section 13, "Ledger first": an entitlement's counters recomputed from its ledger
 * alone, for comparison with the stored (denormalised) ones.
 * - Meter periods from the consume entries and the counted usage records of each (meter, period):
 *   consumed = sum of consumes, reported = the records aggregated by the metric's metricType (sum;
 *   Gauge: the latest by creationDateTime then transactionId; Maximum: the highest), usage =
 *   consumed + reported, credits priced and charged = what the entries and records carry.
 * - Balances by replaying their history in `seq` order from a fresh copy (totalCredits =
 *   initialCreditAmount, nothing used): deposits and grants (remaining + amount), withdrawals,
 *   sets and auto-balances, and consumption charges (creditsUsed and cumulativeCreditsUsed grow
 *   by what was paid, unfundedCredits by what was not).
 * - Where ledger months were dropped past retention, each balance and meter period starts from
 *   what those months held (its base, folded before the drop by fold-ledger-partition.ts) instead
 *   of from nothing; a Gauge's base record counts only while no later record is kept.
 */
export async function rebuildMeteringCounters(
  ctx: DomainContext,
  entitlementId: string,
): Promise<{ periods: RebuiltPeriod[]; balances: RebuiltBalance[] }> {
  const [assets, entries, live, archived] = await Promise.all([
    ctx.db.monitoredAsset.findMany({
      where: { ownerKind: "Entitlement", entitlementId },
      include: { balanceUsages: true, meteredUsages: { select: { id: true } } },
    }),
    ctx.db.consumeEntry.findMany({ where: { entitlementId } }),
    ctx.db.usageRecord.findMany({
      where: { entitlementId, status: "Counted" },
      orderBy: [{ creationDateTime: "asc" }, { transactionId: "asc" }],
    }),
    // Records past the live window moved to the archive (docs/decisions.md "Ledger partitions").
    ctx.db.usageRecordArchive.findMany({
      where: { entitlementId, status: "Counted" },
      orderBy: [{ creationDateTime: "asc" }, { transactionId: "asc" }],
    }),
  ]);
  const [meterBases, balanceBases] = await Promise.all([
    ctx.db.meterLedgerBase.findMany({
      where: { tenantId: ctx.tenantId, monitoredAssetId: { in: assets.map((a) => a.id) } },
    }),
    ctx.db.balanceLedgerBase.findMany({
      where: {
        tenantId: ctx.tenantId,
        balanceUsageId: { in: assets.flatMap((a) => a.balanceUsages.map((b) => b.id)) },
      },
    }),
  ]);
  const records = [...archived, ...live].sort(
    (a, b) =>
      a.creationDateTime.getTime() - b.creationDateTime.getTime() ||
      (a.transactionId < b.transactionId ? -1 : a.transactionId > b.transactionId ? 1 : 0),
  );
  const balanceAssets = new Set(assets.filter((a) => a.balanceUsages.length).map((a) => a.id));
  const metricType = new Map(assets.map((a) => [a.id, a.metricType]));
  type Tally = Omit<
    RebuiltPeriod,
    "usage" | "consumedUsage" | "reportedUsage" | "creditsPriced" | "creditsCharged"
  > & {
    consumed: Micros;
    reported: Micros | null;
    priced: Micros;
    charged: Micros;
    /** A Gauge's base record (creation time, transaction id): kept records before it do not count. */
    baseKey: { at: number; id: bigint } | null;
  };
  const periods = new Map<string, Tally>();
  const tally = (asset: string, periodKey: string) => {
    const key = `${asset}|${periodKey}`;
    let t = periods.get(key);
    if (!t) {
      t = {
        monitoredAssetId: asset,
        periodKey,
        consumeCount: 0,
        recordCount: 0,
        consumed: 0n,
        reported: null,
        priced: 0n,
        charged: 0n,
        baseKey: null,
      };
      periods.set(key, t);
    }
    return t;
  };
  for (const base of meterBases) {
    if (balanceAssets.has(base.monitoredAssetId)) continue;
    const t = tally(base.monitoredAssetId, base.periodKey);
    t.consumed = dec(base.consumedUsage);
    t.consumeCount = base.consumeCount;
    t.reported = base.reportedUsage === null ? null : dec(base.reportedUsage);
    t.recordCount = base.recordCount;
    t.priced = dec(base.creditsPriced);
    t.charged = dec(base.creditsCharged);
    if (base.lastRecordAt && base.lastTransactionId !== null)
      t.baseKey = { at: base.lastRecordAt.getTime(), id: base.lastTransactionId };
  }
  for (const e of entries) {
    if (balanceAssets.has(e.monitoredAssetId)) continue;
    const t = tally(e.monitoredAssetId, e.periodKey);
    t.consumed += dec(e.amount);
    t.consumeCount += 1;
    t.priced += dec(e.creditsPriced);
    t.charged += dec(e.creditsCharged);
  }
  for (const r of records) {
    if (!r.monitoredAssetId || !r.periodKey || balanceAssets.has(r.monitoredAssetId)) continue;
    const t = tally(r.monitoredAssetId, r.periodKey);
    const amount = dec(r.amount);
    const type = metricType.get(r.monitoredAssetId);
    const beforeBase =
      t.baseKey !== null &&
      (r.creationDateTime.getTime() < t.baseKey.at ||
        (r.creationDateTime.getTime() === t.baseKey.at && r.transactionId < t.baseKey.id));
    t.reported =
      type === "Gauge"
        ? beforeBase
          ? t.reported
          : amount
        : type === "Maximum"
          ? t.reported === null || amount > t.reported
            ? amount
            : t.reported
          : (t.reported ?? 0n) + amount;
    t.recordCount += 1;
    t.priced += dec(r.creditsPriced);
    t.charged += dec(r.creditsCharged);
  }

  const balanceBase = new Map(balanceBases.map((b) => [b.balanceUsageId, b]));
  const balances: RebuiltBalance[] = [];
  for (const asset of assets) {
    for (const b of asset.balanceUsages) {
      const history = await ctx.db.balanceHistoryEntry.findMany({
        where: { balanceUsageId: b.id },
        orderBy: { seq: "asc" },
      });
      const base = balanceBase.get(b.id);
      let total = base ? dec(base.totalCredits) : dec(b.initialCreditAmount);
      let used = dec(base?.creditsUsed);
      let cumulative = dec(base?.cumulativeCreditsUsed);
      let unfunded = dec(base?.unfundedCredits);
      for (const h of history) {
        const amount = dec(h.amount);
        switch (h.operation) {
          case "Deposit":
          case "ConsumerGrant":
            total = total - used + amount;
            used = 0n;
            break;
          case "Withdraw":
            total -= amount;
            break;
          case "Set":
          case "AutoBalance":
            total = amount;
            used = 0n;
            break;
          default:
            used += amount;
            cumulative += amount;
            unfunded += dec(h.unfundedAmount);
        }
      }
      balances.push({
        balanceUsageId: b.id,
        totalCredits: toDecimalString(total),
        creditsUsed: toDecimalString(used),
        cumulativeCreditsUsed: toDecimalString(cumulative),
        unfundedCredits: toDecimalString(unfunded),
      });
    }
  }
  return {
    periods: [...periods.values()].map((t) => ({
      monitoredAssetId: t.monitoredAssetId,
      periodKey: t.periodKey,
      usage: toDecimalString(t.consumed + (t.reported ?? 0n)),
      consumedUsage: toDecimalString(t.consumed),
      reportedUsage: toDecimalString(t.reported ?? 0n),
      creditsPriced: toDecimalString(t.priced),
      creditsCharged: toDecimalString(t.charged),
      consumeCount: t.consumeCount,
      recordCount: t.recordCount,
    })),
    balances,
  };
}
