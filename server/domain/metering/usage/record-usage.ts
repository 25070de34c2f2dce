import type { Sql, SqlTx, Statement } from "../../../db/sql.ts";
import { now } from "../../../clock.ts";
import type { EntitlementMeters } from "../meters/meter-terms.ts";
import type { Period } from "../periods/period.ts";
import { toDecimalString, toNumber } from "../quantity.ts";
import { classifyRecords, type ClassifiedRecord } from "./classify-records.ts";
import { settleUsage, type MeterRow, type UsageUploader } from "./settle-usage.ts";
import { usageCeilingRefusal } from "./usage-ceiling.ts";
import { RECORD_USAGE } from "./usage-sql.ts";
import type { TUsageTransactionRecord, TUsageUploadResponse } from "./usage-record.schemas.ts";
import { counterRows, type PendingRateLimits } from "../../rate-limits/hit-rate-limits.ts";

/** The classified records were judged with terms that are no longer current. */
export class StaleUsageTerms extends Error {}

const RECORD: Statement = { name: "metering.record_usage", text: RECORD_USAGE };

/** RECORD_USAGE's answer. */
type RecordedBatch = {
  live: boolean;
  version: string;
  inserted: string[];
  meters: MeterRow[];
  limits: Parameters<typeof counterRows>[0];
};

export type { UsageUploader } from "./settle-usage.ts";

/** docs/api.md: a session that no longer exists answers `entitlementResolved: false`; nothing is recorded or acknowledged. */
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
  sql: Sql,
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
  const run = async (db: Pick<SqlTx, "query">) => {
    const [result] = await db.query<RecordedBatch>(RECORD, [
      tenantId,
      meters.entitlementId,
      uploader.sessionId,
      at,
      meters.version,
      uploader.sessionId !== null,
      ...recordParams(classified),
      ...limits.values(),
    ]);
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
      const costs = await settleUsage(db as SqlTx, tenantId, meters, uploader, fresh, result.meters, at);
      response.creditsCharged = toNumber(costs.paid);
      response.unfundedCredits = toNumber(costs.unfunded);
    }
    return response;
  };
  if (!settles) return run(sql);
  await limits.enforce();
  // The usage ledger is the upload's own: never a caller's transaction.
  return sql.transaction(tenantId, run, { own: true });
}
