import type { SqlTx } from "../../../db/sql.ts";
import { chargeBalance } from "../balances/balance-charge.ts";
import { balanceRowFrom, type BalanceRow } from "../consumption/decide-consumption.ts";
import { LOCK_BALANCES } from "../consumption/consume-sql.ts";
import { rungAt, severityAt, stepUsage } from "../consumption/ladder.ts";
import type { EntitlementMeters, MeterTerms } from "../meters/meter-terms.ts";
import { emitSeverityChanges, type SeverityChange } from "../overage/overage-events.ts";
import { balanceSeverity } from "../overage/severity.ts";
import { periodOf } from "../periods/period.ts";
import { micros, toDecimalString, type Micros } from "../quantity.ts";
import type { ClassifiedRecord } from "./classify-records.ts";
import type { Actor } from "../../context.ts";
import { APPLY_USAGE_CHARGES, READ_REPORTED_SEVERITIES } from "./usage-sql.ts";

/** Who uploads: a session (its liveness gates the batch) or the vendor backend for the entitlement. */
export type UsageUploader = { sessionId: string | null; actor: Actor };

/** A period's usage before and after the batch, as RECORD_USAGE answers it. */
export type MeterRow = {
  asset: string;
  period: string;
  before: string;
  after: string;
  creditsPriced: string;
};

type BalanceTally = { row: BalanceRow; paid: Micros; unfunded: Micros; firstTx: bigint; lastTx: bigint };

/**
 * The settlement of a batch that prices or grades usage, in the transaction of its recording:
 * overage priced by each period's step and the balance's own records, charged to the funding
 * balances (locked in id order), written with the ledger rows; then the severity changes to report.
 */
export async function settleUsage(
  client: SqlTx,
  tenantId: string,
  meters: EntitlementMeters,
  uploader: UsageUploader,
  fresh: readonly ClassifiedRecord[],
  periods: readonly MeterRow[],
  at: Date,
): Promise<{ paid: Micros; unfunded: Micros }> {
  const termsById = new Map([...meters.meters.values()].map((t) => [t.monitoredAssetId, t]));
  const lastRecord = new Map<string, bigint>();
  for (const c of fresh)
    if (c.status === "Counted" && c.terms!.kind !== "Balance") {
      const key = `${c.terms!.monitoredAssetId}|${c.period!.key}`;
      const tx = c.record.transactionId;
      if (!lastRecord.has(key) || tx > lastRecord.get(key)!) lastRecord.set(key, tx);
    }

  // Overage priced by each period's step, and the balances involved.
  const steps = periods
    .map((p) => ({ p, terms: termsById.get(p.asset)! }))
    .filter(({ terms }) => terms.kind === "Metered")
    .map(({ p, terms }) => ({
      p,
      terms,
      step: stepUsage(
        terms.ladder,
        micros(p.before),
        micros(p.after),
        terms.accumulationMethod,
        micros(p.creditsPriced),
      ),
    }));
  const ownRecords = fresh.filter((c) => c.status === "Counted" && c.terms!.kind === "Balance");
  const balanceMetrics = new Set<string>([
    ...steps.flatMap((s) => [...s.step.charges.keys()]),
    ...ownRecords.map((c) => c.terms!.metricName),
  ]);

  const tallies = new Map<string, BalanceTally>();
  const recordCharges = new Map<bigint, { priced: Micros; paid: Micros; unfunded: Micros }>();
  const periodCharges: { asset: string; period: string; priced: Micros; paid: Micros }[] = [];
  if (balanceMetrics.size || steps.some((s) => s.step.creditsPriced > 0n)) {
    const byId = new Map<string, string>();
    for (const metric of balanceMetrics) {
      const t = meters.meters.get(metric);
      if (t?.balanceUsageId) byId.set(t.balanceUsageId, metric);
    }
    if (byId.size) {
      const rows = await client.query<any>({ name: "metering.lock_balances", text: LOCK_BALANCES }, [
        tenantId,
        [...byId.keys()],
      ]);
      for (const r of rows) {
        const metric = byId.get(r.id)!;
        tallies.set(metric, {
          row: balanceRowFrom(metric, r),
          paid: 0n,
          unfunded: 0n,
          firstTx: -1n,
          lastTx: -1n,
        });
      }
    }
    const share = (tx: bigint) => {
      const found = recordCharges.get(tx) ?? { priced: 0n, paid: 0n, unfunded: 0n };
      recordCharges.set(tx, found);
      return found;
    };
    const spend = (metric: string | null, credits: Micros, tx: bigint) => {
      const tally = metric ? tallies.get(metric) : undefined;
      const record = share(tx);
      if (!tally) {
        // A funding balance the license does not hold: the credits are priced and cannot be paid.
        record.unfunded += credits;
        return 0n;
      }
      const charge = chargeBalance(tally.row, credits, at, "usage");
      tally.row = { ...tally.row, creditsUsed: charge.creditsUsedAfter };
      tally.paid += charge.paid;
      tally.unfunded += charge.unfunded;
      if (tally.firstTx < 0n || tx < tally.firstTx) tally.firstTx = tx;
      if (tx > tally.lastTx) tally.lastTx = tx;
      record.paid += charge.paid;
      record.unfunded += charge.unfunded;
      return charge.paid;
    };
    for (const { p, step } of steps) {
      if (step.creditsPriced === 0n) continue;
      const tx = lastRecord.get(`${p.asset}|${p.period}`)!;
      share(tx).priced += step.creditsPriced;
      let paid = 0n;
      for (const [metric, credits] of [...step.charges].sort(([a], [b]) => a.localeCompare(b)))
        paid += spend(metric, credits, tx);
      periodCharges.push({ asset: p.asset, period: p.period, priced: step.creditsPriced, paid });
    }
    for (const c of [...ownRecords].sort((a, b) =>
      a.record.transactionId < b.record.transactionId ? -1 : 1,
    )) {
      share(c.record.transactionId).priced += c.amount!;
      spend(c.terms!.metricName, c.amount!, c.record.transactionId);
    }
  }

  const charged = [...tallies.values()].filter((t) => t.paid > 0n || t.unfunded > 0n);
  const changes: SeverityChange[] = [];
  for (const t of charged) {
    const severity = severityOfBalance(t);
    if (severity !== t.row.overageSeverityStatus)
      changes.push({
        usageKind: "Balance",
        monitoredAssetId: meters.meters.get(t.row.metricName)!.monitoredAssetId,
        metricName: t.row.metricName,
        previous: t.row.overageSeverityStatus,
        severity,
        usage: t.row.creditsUsed,
        limit: t.row.isUnlimitedCredits ? null : t.row.totalCredits,
      });
  }
  if (charged.length || recordCharges.size || periodCharges.length) {
    const records = [...recordCharges].filter(([, s]) => s.priced > 0n);
    await client.query({ name: "metering.apply_usage_charges", text: APPLY_USAGE_CHARGES }, [
      tenantId,
      meters.entitlementId,
      at,
      charged.map((t) => t.row.id),
      charged.map((t) => toDecimalString(t.paid)),
      charged.map((t) => toDecimalString(t.unfunded)),
      charged.map((t) => severityOfBalance(t)),
      charged.map((t) => t.row.metricName),
      charged.map((t) => `usage:${t.firstTx}-${t.lastTx}`),
      uploader.actor.kind,
      uploader.actor.id,
      records.map(([tx]) => tx.toString()),
      records.map(([, s]) => toDecimalString(s.paid)),
      records.map(([, s]) => toDecimalString(s.unfunded)),
      periodCharges.map((c) => c.asset),
      periodCharges.map((c) => c.period),
      periodCharges.map((c) => toDecimalString(c.priced)),
      periodCharges.map((c) => toDecimalString(c.paid)),
      records.map(([, s]) => toDecimalString(s.priced)),
    ]);
  }

  // Severity of the meters whose current period the batch moved, against what was last reported.
  const current = steps.filter(
    ({ p, terms }) =>
      p.period === periodOf(terms, meters.anchorAt, at).key &&
      terms.ladder.rungs.some((r) => r.severity !== "None"),
  );
  if (current.length) {
    const rows = await client.query<{ id: string; severity: string }>(
      { name: "metering.read_reported_severities", text: READ_REPORTED_SEVERITIES },
      [tenantId, current.map((c) => c.terms.meteredUsageId)],
    );
    const reported = new Map(rows.map((r) => [r.id, r.severity]));
    for (const { p, terms } of current) {
      const after = micros(p.after);
      const severity = severityAt(terms.ladder, after);
      if (severity === reported.get(terms.meteredUsageId!)) continue;
      changes.push(meterChange(terms, severity, after, meters, at));
    }
  }
  if (changes.length) await emitSeverityChanges(client, tenantId, meters.entitlementId, changes, at);
  return {
    paid: charged.reduce((s, t) => s + t.paid, 0n),
    unfunded: [...recordCharges.values()].reduce((s, c) => s + c.unfunded, 0n),
  };
}

const severityOfBalance = (t: BalanceTally) =>
  balanceSeverity(t.row.usageQuota, t.row.totalCredits - t.row.creditsUsed);

function meterChange(
  terms: MeterTerms,
  severity: SeverityChange["severity"],
  usage: Micros,
  meters: EntitlementMeters,
  at: Date,
): SeverityChange {
  return {
    usageKind: "Metered",
    monitoredAssetId: terms.monitoredAssetId,
    meteredUsageId: terms.meteredUsageId!,
    metricName: terms.metricName,
    previous: "None",
    severity,
    tierName: rungAt(terms.ladder, usage)?.name ?? null,
    usage,
    limit: terms.ladder.limit,
    period: periodOf(terms, meters.anchorAt, at),
  };
}
