import { blocksDeductions, balanceSeverity, type QuotaBand, type Severity } from "../overage/severity.ts";
import { maxMicros, minMicros, type Micros } from "../quantity.ts";

/** A credit balance as a charge sees it (the row locked for the charge). */
export type BalanceState = {
  totalCredits: Micros;
  creditsUsed: Micros;
  isUnlimitedCredits: boolean;
  suspendedUntilAt: Date | null;
  usageQuota: QuotaBand[];
};

export type BalanceRefusal = "BalanceSuspended" | "CriticalBalance" | "InsufficientCredits";

export type BalanceCharge = {
  /** Credits the balance pays: creditsUsed and cumulativeCreditsUsed grow by it. */
  paid: Micros;
  /** Credits it was asked for and could not pay (uploaded usage only; unfundedCredits grows by it). */
  unfunded: Micros;
  /** Why a consume is refused (nothing is charged then). */
  refusal: BalanceRefusal | null;
  creditsUsedAfter: Micros;
  remainingAfter: Micros;
  severityAfter: Severity;
};

export const remainingOf = (b: Pick<BalanceState, "totalCredits" | "creditsUsed">): Micros =>
  b.totalCredits - b.creditsUsed;

/**
 * What charging `credits` to a balance does (docs/api.md balanceUsage; docs/decisions.md "Metering").
 * A deduction is refused while the balance is suspended (`suspendedUntilAt` ahead), while its
 * remaining credits match a `Critical` usageQuota band, or when fewer credits remain than asked
 * (never a negative balance). An unlimited balance always pays. A consume (`mustPay`) is refused
 * then; uploaded usage has already happened, so what cannot be paid is recorded as unfunded.
 */
export function chargeBalance(
  balance: BalanceState,
  credits: Micros,
  at: Date,
  mode: "consume" | "usage",
): BalanceCharge {
  const remaining = remainingOf(balance);
  const settle = (paid: Micros, unfunded: Micros, refusal: BalanceRefusal | null): BalanceCharge => {
    const creditsUsedAfter = balance.creditsUsed + paid;
    const remainingAfter = balance.totalCredits - creditsUsedAfter;
    return {
      paid,
      unfunded,
      refusal,
      creditsUsedAfter,
      remainingAfter,
      severityAfter: balanceSeverity(balance.usageQuota, remainingAfter),
    };
  };
  if (credits <= 0n) return settle(0n, 0n, null);
  if (balance.isUnlimitedCredits) return settle(credits, 0n, null);
  const refusal: BalanceRefusal | null =
    balance.suspendedUntilAt && balance.suspendedUntilAt > at
      ? "BalanceSuspended"
      : blocksDeductions(balance.usageQuota, remaining)
        ? "CriticalBalance"
        : remaining < credits
          ? "InsufficientCredits"
          : null;
  if (mode === "consume") return refusal ? settle(0n, 0n, refusal) : settle(credits, 0n, null);
  if (refusal === "InsufficientCredits") {
    const paid = maxMicros(minMicros(remaining, credits), 0n);
    return settle(paid, credits - paid, null);
  }
  return refusal ? settle(0n, credits, null) : settle(credits, 0n, null);
}
