import type pg from "pg";
import { inPgTransaction, pgPool } from "../../../db/pool.ts";
import type { Actor } from "../../context.ts";
import { now } from "../../../clock.ts";
import { chargeBalance } from "../balances/balance-charge.ts";
import { balanceRowFrom, type BalanceRow } from "../consumption/decide-consumption.ts";
import { LOCK_BALANCES } from "../consumption/consume-sql.ts";
import { rungAt, severityAt, stepUsage } from "../consumption/ladder.ts";
import type { EntitlementMeters, MeterTerms } from "../meters/meter-terms.ts";
import { emitSeverityChanges, type SeverityChange } from "../overage/overage-events.ts";
import { balanceSeverity } from "../overage/severity.ts";
import { periodOf, type Period } from "../periods/period.ts";
import { micros, toDecimalString, toNumber, type Micros } from "../quantity.ts";
import { classifyRecords, type ClassifiedRecord } from "./classify-records.ts";
import { usageCeilingRefusal } from "./usage-ceiling.ts";
import { APPLY_USAGE_CHARGES, READ_REPORTED_SEVERITIES, RECORD_USAGE } from "./usage-sql.ts";
import type { TUsageTransactionRecord, TUsageUploadResponse } from "./usage-record.schemas.ts";
import { counterRows, type PendingRateLimits } from "../../rate-limits/hit-rate-limits.ts";

/** The classified records were judged with terms that are no longer current. */
export class StaleUsageTerms extends Error {}

type MeterRow = { asset: string; period: string; before: string; after: string; creditsPriced: string };
/** RECORD_USAGE's answer. */
type RecordedBatch = {
  live: boolean;
  version: string;
  inserted: string[];
  meters: MeterRow[];
  limits: Parameters<typeof counterRows>[0];
};

/** Who uploads: a session (its liveness gates the batch) or the vendor backend for the entitlement. */
export type UsageUploader = { sessionId: string | null; actor: Actor };

/** SPEC.md: a session that no longer exists answers `entitlementResolved: false`; nothing is recorded or acknowledged. */
export const unresolvedUpload = (records: readonly TUsageTransactionRecord[]): TUsageUploadResponse => ({
  entitlementResolved: false,
  entitlementId: null,
  acknowledgedTransactionId: null,
  received: records.length,
  counted: 0,
  duplicates: 0,
  unmatched: 0,
  tooOld: 0,
  beyondBackDatingTolerance: 0,
  creditsCharged: 0,
  unfundedCredits: 0,
});

function acknowledged(records: readonly TUsageTransactionRecord[]): number | string | null {
  if (!records.length) return null;
  const max = records.reduce((m, r) => (r.transactionId > m ? r.transactionId : m), records[0].transactionId);
  return max <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(max) : max.toString();
}

const recordParams = (classified: readonly ClassifiedRecord[]) => {
  const col = <T>(f: (c: ClassifiedRecord) => T) => classified.map(f);
  // Each period's bounds as text once (pg formats a Date parameter slowly, and a batch's records share periods).
  const bounds = new Map<Period, { start: string | null; end: string | null }>();
  const boundsOf = (period: Period) => {
    let b = bounds.get(period);
    if (!b) {
      b = { start: period.start?.toISOString() ?? null, end: period.end?.toISOString() ?? null };
      bounds.set(period, b);
    }
    return b;
  };
  return [
    col((c) => c.record.transactionId.toString()),
    col((c) => c.record.sessionId ?? null),
    col((c) => c.record.apiVersion),
    col((c) => c.record.creationDateTime),
    col((c) => c.record.eventName),
    col((c) => c.record.eventData),
    col((c) => c.status),
    col((c) => c.note),
    col((c) => c.terms?.monitoredAssetId ?? null),
    col((c) => c.terms?.metricName ?? null),
    col((c) => (c.amount === null ? null : toDecimalString(c.amount))),
    col((c) => (c.status === "Counted" ? c.period!.key : null)),
    col((c) => (c.period ? boundsOf(c.period).start : null)),
    col((c) => (c.period ? boundsOf(c.period).end : null)),
    col((c) => c.terms?.metricType ?? null),
    col((c) => c.status === "Counted" && c.terms!.kind !== "Balance"),
  ];
};

/** A balance's running state through one batch, and what the batch did to it. */
type BalanceTally = { row: BalanceRow; paid: Micros; unfunded: Micros; firstTx: bigint; lastTx: bigint };

/**
 * Records one batch (usage-sql.ts RECORD_USAGE, one statement), then, only where needed and in
 * the same transaction, what its usage costs and whose severity changed: AllowWithOverage tiers
 * price the new usage and the funding balance pays what it can (the rest is unfunded: the usage
 * has happened), records of a balance's own metric spend its credits the same way, and a meter or
 * balance whose severity changed emits `MeteredUsage.OverageStatusChanged`. A batch's charge to a
 * meter's funding balance is recorded on the batch's last record of that meter and period.
 * `limits` are counted in the statement when it commits on its own, else (a refusal must not be
 * rolled back) in a statement of their own before the transaction.
 */
export async function recordUsage(
  tenantId: string,
  meters: EntitlementMeters,
  uploader: UsageUploader,
  records: readonly TUsageTransactionRecord[],
  limits: PendingRateLimits,
): Promise<TUsageUploadResponse> {
  const at = now();
  const { classified, repeatedInBatch } = classifyRecords(records, meters, at);
  const overCeiling = usageCeilingRefusal(classified);
  if (overCeiling) {
    await limits.enforce();
    throw overCeiling;
  }
  // Costs and severities move only where a counted record meets a balance or a ladder that prices
  // or grades usage; only such a batch needs a transaction around its settlement. Any other is the
  // one statement, committed on its own.
  const settles = classified.some(
    (c) =>
      c.status === "Counted" &&
      (c.terms!.kind === "Balance" ||
        c.terms!.ladder.rungs.some((r) => r.policy === "AllowWithOverage" || r.severity !== "None")),
  );
  const run = async (db: pg.PoolClient | pg.Pool) => {
    const {
      rows: [result],
    } = await db.query<RecordedBatch>({
      name: "metering.record_usage",
      text: RECORD_USAGE,
      values: [
        tenantId,
        meters.entitlementId,
        uploader.sessionId,
        at,
        meters.version,
        uploader.sessionId !== null,
        ...recordParams(classified),
        ...limits.values(),
      ],
    });
    limits.settle(counterRows(result.limits));
    if (!result.live) return unresolvedUpload(records);
    if (result.version !== meters.version) throw new StaleUsageTerms();
    const response: TUsageUploadResponse = {
      ...unresolvedUpload(records),
      entitlementResolved: true,
      entitlementId: meters.entitlementId,
      acknowledgedTransactionId: acknowledged(records),
    };
    const inserted = new Set(result.inserted);
    const fresh = classified.filter((c) => inserted.has(c.record.transactionId.toString()));
    response.duplicates = repeatedInBatch + classified.length - fresh.length;
    for (const c of fresh) {
      if (c.status === "Counted") response.counted += 1;
      else if (c.status === "Unmatched") response.unmatched += 1;
      else if (c.status === "TooOld") response.tooOld += 1;
      else response.beyondBackDatingTolerance += 1;
    }
    if (settles) {
      const costs = await settleUsage(
        db as pg.PoolClient,
        tenantId,
        meters,
        uploader,
        fresh,
        result.meters,
        at,
      );
      response.creditsCharged = toNumber(costs.paid);
      response.unfundedCredits = toNumber(costs.unfunded);
    }
    return response;
  };
  if (!settles) return run(pgPool());
  await limits.enforce();
  return inPgTransaction(run);
}

async function settleUsage(
  client: pg.PoolClient,
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
      const { rows } = await client.query({
        name: "metering.lock_balances",
        text: LOCK_BALANCES,
        values: [tenantId, [...byId.keys()]],
      });
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
    await client.query({
      name: "metering.apply_usage_charges",
      text: APPLY_USAGE_CHARGES,
      values: [
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
      ],
    });
  }

  // Severity of the meters whose current period the batch moved, against what was last reported.
  const current = steps.filter(
    ({ p, terms }) =>
      p.period === periodOf(terms, meters.anchorAt, at).key &&
      terms.ladder.rungs.some((r) => r.severity !== "None"),
  );
  if (current.length) {
    const { rows } = await client.query<{ id: string; severity: string }>({
      name: "metering.read_reported_severities",
      text: READ_REPORTED_SEVERITIES,
      values: [tenantId, current.map((c) => c.terms.meteredUsageId)],
    });
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
