import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { DomainContext } from "../../context.ts";
import { inPgTransaction, pgPool } from "../../../db/pool.ts";
import { AppError } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { noActiveSession } from "../../licensing/sessions/session-access.ts";
import { entitlementMeters, type EntitlementMeters, type MeterTerms } from "../meters/meter-terms.ts";
import { LIFETIME, periodOf, type Period } from "../periods/period.ts";
import { emitSeverityChanges, type SeverityChange } from "../overage/overage-events.ts";
import { micros, toDecimalString, toNumber, type Micros } from "../quantity.ts";
import type { TConsumptionDecision } from "./consumption.schemas.ts";
import {
  FAST_CONSUME,
  LOCK_BALANCES,
  LOCK_METER_PERIOD,
  LOCK_OWN_BALANCE,
  READ_BALANCES,
  READ_KEY,
  READ_METER_PERIOD,
  READ_OWN_BALANCE,
  WRITE_CONSUME,
} from "./consume-sql.ts";
import { freeRegions } from "./ladder.ts";
import { counterRows, countedRateLimits, type PendingRateLimits } from "../../rate-limits/hit-rate-limits.ts";
import {
  balanceRowFrom,
  decideMeter,
  decideOwnBalance,
  periodFields,
  settleCharges,
  type BalanceRow,
  type Decision,
} from "./decide-consumption.ts";

export type ConsumeInput = {
  sessionId: string;
  entitlementId: string;
  metricName: string;
  /** A positive decimal string (ZConsumeQuery). */
  amount: string;
  idempotencyKey?: string | null;
};

type SessionFacts = {
  live: boolean;
  version: string;
  keyMetric: string | null;
  keyAmount: string | null;
  keyDecision: string | null;
};

/** The terms moved between reading them and locking the meter: read them again and start over. */
class StaleTerms extends Error {}
/** The answer is known and nothing must be written: roll the transaction back and answer it. */
class Answer extends Error {
  constructor(readonly decision: TConsumptionDecision) {
    super("answered");
  }
}

const metricNotTracked = (metricName: string) =>
  new AppError("license.metric_not_tracked", `The license does not track the metric "${metricName}".`);

/** An idempotencyKey remembered by an earlier consume: the same request answers the same decision. */
function replay(facts: Omit<SessionFacts, "live" | "version">, metricName: string, amount: Micros) {
  if (facts.keyDecision === null) return null;
  if (facts.keyMetric !== metricName || micros(facts.keyAmount!) !== amount)
    throw new AppError(
      "idempotency.key_reused",
      "This idempotencyKey was used for another metric or amount within the last 24 hours.",
    );
  return { ...(JSON.parse(facts.keyDecision) as TConsumptionDecision), idempotentReplay: true };
}

function answer(
  input: ConsumeInput,
  terms: MeterTerms,
  period: Period,
  decision: Decision,
  amount: Micros,
  committed: boolean,
  at: Date,
): TConsumptionDecision {
  const charged = decision.charges.reduce((sum, c) => sum + c.credits, 0n);
  return {
    allowed: decision.allowed,
    reasonCode: decision.reasonCode,
    committed,
    idempotentReplay: false,
    entitlementId: input.entitlementId,
    sessionId: input.sessionId,
    metricName: input.metricName,
    usageKind: terms.kind,
    amount: toNumber(amount),
    ...periodFields(period),
    usage: toNumber(decision.usageAfter),
    limit: decision.limit === null ? null : toNumber(decision.limit),
    remaining: decision.remaining === null ? null : toNumber(decision.remaining),
    tierName: decision.tierName,
    severity: decision.severity,
    overageUnits: toNumber(decision.overageUnits),
    overageCredits: toNumber(decision.overageCredits),
    creditsCharged: toNumber(charged),
    fundingBalanceMetric: decision.reportedBalance?.metricName ?? null,
    balanceAfter: decision.reportedBalance ? toNumber(decision.reportedBalance.remaining) : null,
    decidedAt: at.toISOString(),
  };
}

/** The funding balances a charge needs, read (preview) or locked (consume) in id order. */
async function fundingBalances(
  db: pg.ClientBase | pg.Pool,
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
  const { rows } = await db.query({
    name: lock ? "metering.lock_balances" : "metering.read_balances",
    text: lock ? LOCK_BALANCES : READ_BALANCES,
    values: [tenantId, [...byId.keys()]],
  });
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

type Mode = "preview" | "commit";

/**
 * The decision of either mode from the meter's own row: read (preview) or locked (commit), with
 * the session's liveness, the terms' version and a remembered key beside it; when the meter's
 * tiers charge, the funding balances are read or locked too (in id order, after the meter).
 */
async function decideOn(
  db: pg.ClientBase | pg.Pool,
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
    const { rows } = await db.query({
      name: lock ? "metering.lock_own_balance" : "metering.read_own_balance",
      text: lock ? LOCK_OWN_BALANCE : READ_OWN_BALANCE,
      values: ownBalanceParams(tenantId, input, terms, at),
    });
    if (!rows[0]) throw new StaleTerms();
    checkFacts(rows[0], meters, input, amount);
    const decision = decideOwnBalance(balanceRowFrom(terms.metricName, rows[0]), amount, at);
    return { decision, period: LIFETIME, lastSeverity: null };
  }
  const period = terms.kind === "Metered" ? periodOf(terms, meters.anchorAt, at) : LIFETIME;
  const { rows } = await db.query({
    name: lock ? "metering.lock_meter_period" : "metering.read_meter_period",
    text: lock ? LOCK_METER_PERIOD : READ_METER_PERIOD,
    values: meterParams(tenantId, input, terms, period, at),
  });
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

/** preview-consume: the same decision, read without locks; it changes nothing and reserves nothing. */
async function preview(tenantId: string, input: ConsumeInput, meters: EntitlementMeters, terms: MeterTerms) {
  const at = now();
  const amount = micros(input.amount);
  const { decision, period } = await decideOn(
    pgPool(),
    "preview",
    tenantId,
    input,
    meters,
    terms,
    amount,
    at,
  );
  return answer(input, terms, period, decision, amount, false, at);
}

/**
 * The common consume in one round trip (consume-sql.ts FAST_CONSUME, which also counts the
 * request's rate limits): allowed, free, no change of severity. Null when its conditions do not
 * hold; the locking path then decides.
 */
async function fastCommit(
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
  const { rows } = await pgPool().query({
    name: "metering.fast_consume",
    text: FAST_CONSUME,
    values: [
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
    ],
  });
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

/** The binding consume: lock, decide, write the ledger and counters, report severity changes, commit. */
async function commit(tenantId: string, input: ConsumeInput, meters: EntitlementMeters, terms: MeterTerms) {
  const amount = micros(input.amount);
  try {
    return await inPgTransaction(async (client) => {
      const at = now();
      const { decision, period, lastSeverity } = await decideOn(
        client,
        "commit",
        tenantId,
        input,
        meters,
        terms,
        amount,
        at,
      );
      const result = answer(input, terms, period, decision, amount, decision.allowed, at);
      // A refusal writes nothing (and is not remembered under the idempotencyKey).
      if (!decision.allowed) throw new Answer(result);

      const entryId = randomUUID();
      const charged = decision.charges.reduce((sum, c) => sum + c.credits, 0n);
      const { rows: written } = await client.query({
        name: "metering.write_consume",
        text: WRITE_CONSUME,
        values: [
          tenantId,
          input.entitlementId,
          entryId,
          input.sessionId,
          input.metricName,
          toDecimalString(amount),
          terms.monitoredAssetId,
          period.key,
          toDecimalString(decision.usageAfter),
          at,
          decision.tierName,
          decision.severity,
          input.idempotencyKey ?? null,
          JSON.stringify(result),
          toDecimalString(decision.overageUnits),
          toDecimalString(decision.creditsPriced),
          toDecimalString(charged),
          decision.reportedBalance?.metricName ?? null,
          decision.reportedBalance ? toDecimalString(decision.reportedBalance.remaining) : null,
          decision.charges.map((c) => c.balance.id),
          decision.charges.map((c) => toDecimalString(c.credits)),
          decision.charges.map((c) => c.severityAfter),
          terms.kind === "Balance" ? "Consume" : "OverageCharge",
          decision.charges.map((c) => c.balance.metricName),
        ],
      });
      if (written[0].written === 0) {
        // A concurrent consume with the same key committed first: answer what it answered.
        const { rows } = await client.query({
          name: "metering.read_consume_key",
          text: READ_KEY,
          values: [tenantId, input.entitlementId, input.idempotencyKey],
        });
        throw new Answer(replay(rows[0], input.metricName, amount)!);
      }

      const changes: SeverityChange[] = decision.charges
        .filter((c) => c.severityAfter !== c.balance.overageSeverityStatus)
        .map((c) => ({
          usageKind: "Balance",
          monitoredAssetId: meters.meters.get(c.balance.metricName)!.monitoredAssetId,
          metricName: c.balance.metricName,
          previous: c.balance.overageSeverityStatus,
          severity: c.severityAfter,
          usage: c.creditsUsedAfter,
          limit: c.balance.isUnlimitedCredits ? null : c.balance.totalCredits,
        }));
      if (terms.kind === "Metered" && decision.severity !== lastSeverity)
        changes.push({
          usageKind: "Metered",
          monitoredAssetId: terms.monitoredAssetId,
          meteredUsageId: terms.meteredUsageId!,
          metricName: terms.metricName,
          previous: "None",
          severity: decision.severity,
          tierName: decision.tierName,
          usage: decision.usageAfter,
          limit: terms.ladder.limit,
          period,
        });
      if (changes.length) await emitSeverityChanges(client, tenantId, input.entitlementId, changes, at);
      return result;
    });
  } catch (error) {
    if (error instanceof Answer) return error.decision;
    throw error;
  }
}

/**
 * `limits` are counted before anything else happens: in the fast path's own statement, else in a
 * statement of their own first.
 */
async function decide(
  ctx: DomainContext,
  input: ConsumeInput,
  mode: "preview" | "commit",
  limits: PendingRateLimits,
) {
  for (let attempt = 0; attempt < 4; attempt++) {
    const meters = await entitlementMeters(ctx.db, ctx.tenantId, input.entitlementId, {
      refresh: attempt > 0,
    });
    const terms = meters?.meters.get(input.metricName);
    if (!meters || !terms || mode === "preview") await limits.enforce();
    if (!meters) throw noActiveSession();
    try {
      if (!terms) {
        await assertLiveSession(ctx.tenantId, input);
        throw metricNotTracked(input.metricName);
      }
      if (mode === "preview") return await preview(ctx.tenantId, input, meters, terms);
      const fast = await fastCommit(ctx.tenantId, input, meters, terms, limits);
      if (fast) return fast;
      await limits.enforce();
      return await commit(ctx.tenantId, input, meters, terms);
    } catch (error) {
      if (!(error instanceof StaleTerms)) throw error;
    }
  }
  throw new AppError("license.conflict", "The license's metering terms kept changing; retry the request.");
}

const LIVE_SESSION = `
SELECT (s."revokedAt" IS NULL AND s."graceExpiresAt" > $4 AND e.status = 'Published') IS TRUE AS live
FROM (SELECT 1) one
  LEFT JOIN "LicenseSession" s ON s."tenantId" = $1 AND s.id = $3 AND s."entitlementId" = $2
  LEFT JOIN "Entitlement" e ON e."tenantId" = $1 AND e.id = $2`;

/** A session call on a session that no longer exists answers 409 before anything else (SPEC.md). */
export async function assertLiveSession(
  tenantId: string,
  input: { entitlementId: string; sessionId: string },
): Promise<void> {
  const { rows } = await pgPool().query({
    name: "metering.live_session",
    text: LIVE_SESSION,
    values: [tenantId, input.entitlementId, input.sessionId, now()],
  });
  if (!rows[0].live) throw noActiveSession();
}

/**
 * POST /usage/consume/{sessionId}/{metric}: the binding decision on the entitlement's effective
 * feature value and tiers (docs/decisions.md "Metering"). An allowed consume is written to the
 * ledger with its charges in one transaction; a refusal writes nothing. 404
 * `license.metric_not_tracked` charges nothing; 409 `license.no_active_session` when the session
 * is gone.
 */
export const consumeMetric = (
  ctx: DomainContext,
  input: ConsumeInput,
  limits: PendingRateLimits = countedRateLimits,
) => decide(ctx, input, "commit", limits);

/** POST /usage/preview-consume/{sessionId}/{metric}: the same decision; changes nothing, reserves nothing. */
export const previewConsume = (ctx: DomainContext, input: Omit<ConsumeInput, "idempotencyKey">) =>
  decide(ctx, { ...input, idempotencyKey: null }, "preview", countedRateLimits);
