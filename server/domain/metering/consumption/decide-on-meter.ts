import type { SqlTx } from "../../../db/sql.ts";
import { noActiveSession } from "../../licensing/sessions/session-access.ts";
import type { EntitlementMeters, MeterTerms } from "../meters/meter-terms.ts";
import { LIFETIME, periodOf, type Period } from "../periods/period.ts";
import { micros, type Micros } from "../quantity.ts";
import { Answer, replay, StaleTerms, type ConsumeInput, type SessionFacts } from "./consume-answer.ts";
import {
  LOCK_BALANCES,
  LOCK_METER_PERIOD,
  LOCK_OWN_BALANCE,
  READ_BALANCES,
  READ_METER_PERIOD,
  READ_OWN_BALANCE,
} from "./consume-sql.ts";
import {
  balanceRowFrom,
  decideMeter,
  decideOwnBalance,
  settleCharges,
  type BalanceRow,
  type Decision,
} from "./decide-consumption.ts";

/** The funding balances a charge needs, read (preview) or locked (consume) in id order. */
async function fundingBalances(
  db: Pick<SqlTx, "query">,
  tenantId: string,
  meters: EntitlementMeters,
  metrics: Iterable<string>,
  lock: boolean,
): Promise<Map<string, BalanceRow>> {
  const byId = new Map<string, string>();
  for (const metric of metrics) {
    const t = meters.meters.get(metric);
    if (t?.balanceUsageId) byId.set(t.balanceUsageId, metric);
  }
  if (!byId.size) return new Map();
  const rows = await db.query<any>(
    {
      name: lock ? "metering.lock_balances" : "metering.read_balances",
      text: lock ? LOCK_BALANCES : READ_BALANCES,
    },
    [tenantId, [...byId.keys()]],
  );
  return new Map(rows.map((r) => [byId.get(r.id)!, balanceRowFrom(byId.get(r.id)!, r)]));
}

function meterParams(tenantId: string, input: ConsumeInput, terms: MeterTerms, period: Period, at: Date) {
  return [
    tenantId,
    input.entitlementId,
    input.sessionId,
    input.idempotencyKey ?? null,
    at,
    terms.monitoredAssetId,
    period.key,
    terms.metricName,
    terms.metricType,
    period.start,
    period.end,
    terms.meteredUsageId,
  ];
}

const ownBalanceParams = (tenantId: string, input: ConsumeInput, terms: MeterTerms, at: Date) => [
  tenantId,
  input.entitlementId,
  input.sessionId,
  input.idempotencyKey ?? null,
  at,
  terms.balanceUsageId,
];

/** The facts read beside the meter: current terms, a live session, and a remembered key to answer. */
function checkFacts(facts: SessionFacts, meters: EntitlementMeters, input: ConsumeInput, amount: Micros) {
  if (facts.version !== meters.version) throw new StaleTerms();
  if (!facts.live) throw noActiveSession();
  const replayed = replay(facts, input.metricName, amount);
  if (replayed) throw new Answer(replayed);
}

export type Mode = "preview" | "commit";

/**
 * The decision of either mode from the meter's own row: read (preview) or locked (commit), with
 * the session's liveness, the terms' version and a remembered key beside it; when the meter's
 * tiers charge, the funding balances are read or locked too (in id order, after the meter).
 */
export async function decideOn(
  db: Pick<SqlTx, "query">,
  mode: Mode,
  tenantId: string,
  input: ConsumeInput,
  meters: EntitlementMeters,
  terms: MeterTerms,
  amount: Micros,
  at: Date,
): Promise<{ decision: Decision; period: Period; lastSeverity: string | null }> {
  const lock = mode === "commit";
  if (terms.kind === "Balance") {
    const rows = await db.query<any>(
      {
        name: lock ? "metering.lock_own_balance" : "metering.read_own_balance",
        text: lock ? LOCK_OWN_BALANCE : READ_OWN_BALANCE,
      },
      ownBalanceParams(tenantId, input, terms, at),
    );
    if (!rows[0]) throw new StaleTerms();
    checkFacts(rows[0], meters, input, amount);
    const decision = decideOwnBalance(balanceRowFrom(terms.metricName, rows[0]), amount, at);
    return { decision, period: LIFETIME, lastSeverity: null };
  }
  const period = terms.kind === "Metered" ? periodOf(terms, meters.anchorAt, at) : LIFETIME;
  const rows = await db.query<any>(
    {
      name: lock ? "metering.lock_meter_period" : "metering.read_meter_period",
      text: lock ? LOCK_METER_PERIOD : READ_METER_PERIOD,
    },
    meterParams(tenantId, input, terms, period, at),
  );
  const facts = rows[0];
  checkFacts(facts, meters, input, amount);
  const phase = decideMeter(
    terms,
    {
      usage: micros(facts.usage),
      creditsPriced: micros(facts.creditsPriced),
      meterSuspendedUntilAt: facts.meterSuspendedUntilAt,
    },
    amount,
    at,
  );
  const decision =
    "decision" in phase
      ? phase.decision
      : settleCharges(
          terms,
          phase.pending,
          phase.charges,
          await fundingBalances(db, tenantId, meters, phase.charges.keys(), lock),
          at,
        );
  return { decision, period, lastSeverity: facts.lastSeverity };
}
