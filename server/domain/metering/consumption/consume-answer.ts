import { AppError } from "../../../core/errors.ts";
import type { MeterTerms } from "../meters/meter-terms.ts";
import type { Period } from "../periods/period.ts";
import { micros, toNumber, type Micros } from "../quantity.ts";
import type { TConsumptionDecision } from "./consumption.schemas.ts";
import { periodFields, type Decision } from "./decide-consumption.ts";

export type ConsumeInput = {
  sessionId: string;
  entitlementId: string;
  metricName: string;
  /** A positive decimal string (ZConsumeQuery). */
  amount: string;
  idempotencyKey?: string | null;
};

export type SessionFacts = {
  live: boolean;
  version: string;
  keyMetric: string | null;
  keyAmount: string | null;
  keyDecision: string | null;
};

/** The terms moved between reading them and locking the meter: read them again and start over. */
export class StaleTerms extends Error {}
/** The answer is known and nothing must be written: roll the transaction back and answer it. */
export class Answer extends Error {
  constructor(readonly decision: TConsumptionDecision) {
    super("answered");
  }
}

export const metricNotTracked = (metricName: string) =>
  new AppError("license.metric_not_tracked", `The license does not track the metric "${metricName}".`);

/** An idempotencyKey remembered by an earlier consume: the same request answers the same decision. */
export function replay(facts: Omit<SessionFacts, "live" | "version">, metricName: string, amount: Micros) {
  if (facts.keyDecision === null) return null;
  if (facts.keyMetric !== metricName || micros(facts.keyAmount!) !== amount)
    throw new AppError(
      "idempotency.key_reused",
      "This idempotencyKey was used for another metric or amount within the last 24 hours.",
    );
  return { ...(JSON.parse(facts.keyDecision) as TConsumptionDecision), idempotentReplay: true };
}

/** The answer of a decision, as both modes and a remembered key report it. */
export function answer(
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
