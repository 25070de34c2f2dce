import {
  chargeBalance,
  remainingOf as balanceRemaining,
  type BalanceState,
} from "../balances/balance-charge.ts";
import { balanceSeverity, type Severity } from "../overage/severity.ts";
import type { Period } from "../periods/period.ts";
import { micros, ZERO, type Micros } from "../quantity.ts";
import type { MeterTerms } from "../meters/meter-terms.ts";
import type { ConsumptionReasonCode } from "./consumption.schemas.ts";
import { remainingOf, rungAt, severityAt, stepUsage } from "./ladder.ts";

/** A balance as the decision reads it: its row, with the metric it is known by. */
export type BalanceRow = BalanceState & {
  id: string;
  metricName: string;
  overageSeverityStatus: Severity;
};

export function balanceRowFrom(
  metricName: string,
  row: {
    id: string;
    totalCredits: string;
    creditsUsed: string;
    isUnlimitedCredits: boolean;
    suspendedUntilAt: Date | null;
    usageQuota: unknown;
    overageSeverityStatus: string;
  },
): BalanceRow {
  return {
    id: row.id,
    metricName,
    totalCredits: micros(row.totalCredits),
    creditsUsed: micros(row.creditsUsed),
    isUnlimitedCredits: row.isUnlimitedCredits,
    suspendedUntilAt: row.suspendedUntilAt,
    usageQuota: Array.isArray(row.usageQuota) ? row.usageQuota : [],
    overageSeverityStatus: row.overageSeverityStatus as Severity,
  };
}

/** One balance charged by an allowed decision, with its state after. */
export type AppliedCharge = {
  balance: BalanceRow;
  credits: Micros;
  creditsUsedAfter: Micros;
  remainingAfter: Micros;
  severityAfter: Severity;
};

export type Decision = {
  allowed: boolean;
  reasonCode: ConsumptionReasonCode;
  usageBefore: Micros;
  usageAfter: Micros;
  limit: Micros | null;
  remaining: Micros | null;
  tierName: string | null;
  severity: Severity;
  overageUnits: Micros;
  overageCredits: Micros;
  creditsPriced: Micros;
  charges: AppliedCharge[];
  /** The balance to report: the one charged, or the one that refused. */
  reportedBalance: { metricName: string; remaining: Micros } | null;
};

const refused = (
  reasonCode: ConsumptionReasonCode,
  terms: MeterTerms,
  usage: Micros,
  reportedBalance: Decision["reportedBalance"] = null,
): Decision => ({
  allowed: false,
  reasonCode,
  usageBefore: usage,
  usageAfter: usage,
  limit: terms.ladder.limit,
  remaining: remainingOf(terms.ladder, usage),
  tierName: rungAt(terms.ladder, usage)?.name ?? null,
  severity: severityAt(terms.ladder, usage),
  overageUnits: ZERO,
  overageCredits: ZERO,
  creditsPriced: ZERO,
  charges: [],
  reportedBalance,
});

/**
 * Phase one of a metered (or tracked) meter's decision, from its period counters: the meter's own
 * rules and the credits its tiers price. Balances named by `charges` are then locked and judged
 * by `settleCharges`.
 */
export function decideMeter(
  terms: MeterTerms,
  state: { usage: Micros; creditsPriced: Micros; meterSuspendedUntilAt: Date | null },
  amount: Micros,
  at: Date,
): { decision: Decision } | { pending: Decision; charges: Map<string, Micros> } {
  if (state.meterSuspendedUntilAt && state.meterSuspendedUntilAt > at)
    return { decision: refused("MeterSuspended", terms, state.usage) };
  if (!terms.featureEnabled) return { decision: refused("FeatureDisabled", terms, state.usage) };
  const after = state.usage + amount;
  const step = stepUsage(terms.ladder, state.usage, after, terms.accumulationMethod, state.creditsPriced);
  if (step.pastLimit) {
    const decision = refused("QuotaExceeded", terms, state.usage);
    if (step.pastLimit !== "LadderEnd") decision.tierName = step.pastLimit.name;
    return { decision };
  }
  const rung = rungAt(terms.ladder, after);
  const pending: Decision = {
    allowed: true,
    reasonCode: step.overageUnits > 0n ? "AllowedWithOverage" : "Allowed",
    usageBefore: state.usage,
    usageAfter: after,
    limit: terms.ladder.limit,
    remaining: remainingOf(terms.ladder, after),
    tierName: rung?.name ?? null,
    severity: rung?.severity ?? "None",
    overageUnits: step.overageUnits,
    overageCredits: step.creditsPriced,
    creditsPriced: step.creditsPriced,
    charges: [],
    reportedBalance: null,
  };
  return step.charges.size ? { pending, charges: step.charges } : { decision: pending };
}

/**
 * Phase two: each funding balance pays its share or refuses the whole consume (a consume is
 * binding: it is charged in full or not at all). `balances` are the rows locked for it, by metric.
 */
export function settleCharges(
  terms: MeterTerms,
  pending: Decision,
  charges: Map<string, Micros>,
  balances: Map<string, BalanceRow>,
  at: Date,
): Decision {
  const applied: AppliedCharge[] = [];
  for (const [metricName, credits] of [...charges].sort(([a], [b]) => a.localeCompare(b))) {
    const balance = balances.get(metricName);
    if (!balance) return refused("FundingUnavailable", terms, pending.usageBefore);
    const charge = chargeBalance(balance, credits, at, "consume");
    if (charge.refusal)
      return refused(charge.refusal, terms, pending.usageBefore, {
        metricName,
        remaining: balanceRemaining(balance),
      });
    applied.push({
      balance,
      credits,
      creditsUsedAfter: charge.creditsUsedAfter,
      remainingAfter: charge.remainingAfter,
      severityAfter: charge.severityAfter,
    });
  }
  const first = applied[0];
  return {
    ...pending,
    charges: applied,
    reportedBalance: first ? { metricName: first.balance.metricName, remaining: first.remainingAfter } : null,
  };
}

/** A consume of a credit balance's own metric: the amount is credits. */
export function decideOwnBalance(balance: BalanceRow, amount: Micros, at: Date): Decision {
  const charge = chargeBalance(balance, amount, at, "consume");
  const before = balance.creditsUsed;
  const remainingBefore = balanceRemaining(balance);
  const base = {
    limit: balance.isUnlimitedCredits ? null : balance.totalCredits,
    tierName: null,
    overageUnits: ZERO,
    overageCredits: ZERO,
    creditsPriced: ZERO,
  };
  if (charge.refusal)
    return {
      ...base,
      allowed: false,
      reasonCode: charge.refusal,
      usageBefore: before,
      usageAfter: before,
      remaining: balance.isUnlimitedCredits ? null : remainingBefore,
      severity: balanceSeverity(balance.usageQuota, remainingBefore),
      charges: [],
      reportedBalance: { metricName: balance.metricName, remaining: remainingBefore },
    };
  return {
    ...base,
    allowed: true,
    reasonCode: "Allowed",
    usageBefore: before,
    usageAfter: charge.creditsUsedAfter,
    remaining: balance.isUnlimitedCredits ? null : charge.remainingAfter,
    severity: charge.severityAfter,
    charges: [
      {
        balance,
        credits: amount,
        creditsUsedAfter: charge.creditsUsedAfter,
        remainingAfter: charge.remainingAfter,
        severityAfter: charge.severityAfter,
      },
    ],
    reportedBalance: { metricName: balance.metricName, remaining: charge.remainingAfter },
  };
}

export const periodFields = (period: Period) => ({
  periodKey: period.key,
  periodStart: period.start?.toISOString() ?? null,
  periodEnd: period.end?.toISOString() ?? null,
});
