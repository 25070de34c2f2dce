import type { EntitlementMeters, MeterTerms } from "../meters/meter-terms.ts";
import { LIFETIME, periodOf, type Period } from "../periods/period.ts";
import type { Micros } from "../quantity.ts";
import { mapUsageEvent } from "./event-mapping.ts";
import type { TUsageTransactionRecord } from "./usage-record.schemas.ts";

/** docs/api.md "Limits": records captured more than 90 days before upload are acknowledged and not counted. */
export const MAX_USAGE_AGE_MS = 90 * 86_400_000;

export type UsageRecordStatus = "Counted" | "Unmatched" | "TooOld" | "BeyondBackDatingTolerance";

export type ClassifiedRecord = {
  record: TUsageTransactionRecord;
  status: UsageRecordStatus;
  note: string | null;
  terms: MeterTerms | null;
  amount: Micros | null;
  period: Period | null;
};

/**
 * What each record of a batch is (docs/decisions.md "Metering"), in this order: older than 90
 * days → TooOld; no tracked metric (event-mapping.ts) → Unmatched; older than the metric's
 * allowedBackDatingTolerance → BeyondBackDatingTolerance; else Counted, in the period of its
 * creationDateTime (a time ahead of the server's counts now). A transactionId repeated within the
 * batch is processed once (the first).
 */
export function classifyRecords(
  records: readonly TUsageTransactionRecord[],
  meters: EntitlementMeters,
  at: Date,
): { classified: ClassifiedRecord[]; repeatedInBatch: number } {
  const seen = new Set<bigint>();
  const classified: ClassifiedRecord[] = [];
  // A batch's records mostly fall in one period of their meter: the last one found is asked first.
  const lastPeriod = new Map<MeterTerms, Period>();
  const periodAt = (terms: MeterTerms, ms: number): Period => {
    const last = lastPeriod.get(terms);
    if (last && (last.start === null || (last.start.getTime() <= ms && ms < last.end!.getTime())))
      return last;
    const found = periodOf(terms, meters.anchorAt, new Date(ms));
    lastPeriod.set(terms, found);
    return found;
  };
  const now = at.getTime();
  for (const record of records) {
    if (seen.has(record.transactionId)) continue;
    seen.add(record.transactionId);
    const created = Date.parse(record.creationDateTime);
    const age = now - created;
    const mapped = mapUsageEvent(record.eventName, record.eventData, (m) => meters.meters.has(m));
    const terms = "metricName" in mapped ? meters.meters.get(mapped.metricName)! : null;
    const amount = "amount" in mapped ? mapped.amount : null;
    const base = { record, terms, amount, period: null, note: null };
    if (age > MAX_USAGE_AGE_MS) classified.push({ ...base, status: "TooOld" });
    else if ("unmatched" in mapped) classified.push({ ...base, status: "Unmatched", note: mapped.unmatched });
    else if (terms!.backDatingToleranceMs !== null && age > terms!.backDatingToleranceMs)
      classified.push({ ...base, status: "BeyondBackDatingTolerance" });
    else {
      const period = terms!.kind === "Metered" ? periodAt(terms!, created > now ? now : created) : LIFETIME;
      classified.push({ ...base, status: "Counted", period });
    }
  }
  return { classified, repeatedInBatch: records.length - classified.length };
}
