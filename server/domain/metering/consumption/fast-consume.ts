import { randomUUID } from "node:crypto";
import type { Sql } from "../../../db/sql.ts";
import { now } from "../../../clock.ts";
import type { EntitlementMeters, MeterTerms } from "../meters/meter-terms.ts";
import { LIFETIME, periodOf } from "../periods/period.ts";
import { micros, toDecimalString } from "../quantity.ts";
import { counterRows, type PendingRateLimits } from "../../rate-limits/hit-rate-limits.ts";
import { answer, type ConsumeInput } from "./consume-answer.ts";
import { FAST_CONSUME } from "./consume-sql.ts";
import { decideMeter } from "./decide-consumption.ts";
import { freeRegions } from "./ladder.ts";

/**
 * The common consume in one round trip (consume-sql.ts FAST_CONSUME, which also counts the
 * request's rate limits): allowed, free, no change of severity. Null when its conditions do not
 * hold; the locking path then decides.
 */
export async function fastCommit(
  sql: Sql,
  tenantId: string,
  input: ConsumeInput,
  meters: EntitlementMeters,
  terms: MeterTerms,
  limits: PendingRateLimits,
) {
  if (input.idempotencyKey || terms.kind === "Balance" || !terms.featureEnabled) return null;
  const at = now();
  const amount = micros(input.amount);
  const period = terms.kind === "Metered" ? periodOf(terms, meters.anchorAt, at) : LIFETIME;
  const regions = freeRegions(terms.ladder);
  const rows = await sql.query<any>({ name: "metering.fast_consume", text: FAST_CONSUME }, [
    tenantId,
    input.entitlementId,
    input.sessionId,
    randomUUID(),
    at,
    toDecimalString(amount),
    terms.monitoredAssetId,
    period.key,
    meters.version,
    terms.meteredUsageId,
    regions.map((r) => toDecimalString(r.lo)),
    regions.map((r) => (r.hi === null ? null : toDecimalString(r.hi))),
    regions.map((r) => r.severity),
    terms.metricName,
    regions.map((r) => r.tierName),
    ...limits.values(),
  ]);
  limits.settle(counterRows(rows[0].limits));
  if (rows[0].usage === null) return null;
  const after = micros(rows[0].usage);
  const phase = decideMeter(
    terms,
    { usage: after - amount, creditsPriced: 0n, meterSuspendedUntilAt: null },
    amount,
    at,
  );
  if (!("decision" in phase)) throw new Error("The fast path wrote a consume that charges.");
  return answer(input, terms, period, phase.decision, amount, true, at);
}
