import type { TBalanceUsageInput, TMeteredUsageInput } from "./monitored-asset.schemas.ts";
import type { TUsageTier } from "./usage-tier.schemas.ts";

/** Tiers stored with every field explicit, in the order given. */
export function storedTiers(tiers: readonly TUsageTier[]): TUsageTier[] {
  return tiers.map((t) => ({
    name: t.name,
    startUsage: t.startUsage,
    startPercentage: t.startPercentage,
    endUsage: t.endUsage,
    endPercentage: t.endPercentage,
    baseCredits: t.baseCredits,
    creditsPerUnitOfConsumption: t.creditsPerUnitOfConsumption,
    quotaUsageLevel: t.quotaUsageLevel,
    quotaUsagePolicy: t.quotaUsagePolicy,
    fundingBalanceMetric: t.fundingBalanceMetric,
  }));
}

export function meteredUsageData(input: TMeteredUsageInput) {
  return {
    usageTiers: storedTiers(input.usageTiers),
    consumptionPeriod: input.consumptionPeriod,
    periodAnchor: input.periodAnchor,
    accumulationMethod: input.accumulationMethod,
    suspendedUntilAt: input.suspendedUntilAt ? new Date(input.suspendedUntilAt) : null,
  };
}

/** Quota bands stored by ascending threshold (the lowest matching threshold wins, so order is cosmetic). */
export function storedBands(bands: TBalanceUsageInput["usageQuota"]) {
  return [...bands]
    .sort((a, b) => a.endUsage - b.endUsage)
    .map((b) => ({ endUsage: b.endUsage, name: b.name, quotaUsageLevel: b.quotaUsageLevel }));
}

/**
 * The editable columns of a balance. A product's balance is a template (no deposits happen on
 * it), so its totalCredits is its initialCreditAmount.
 */
export function balanceUsageData(input: TBalanceUsageInput, options: { isTemplate: boolean }) {
  return {
    name: input.name,
    description: input.description,
    unit: input.unit,
    numberFormat: input.numberFormat,
    initialCreditAmount: input.initialCreditAmount,
    ...(options.isTemplate ? { totalCredits: input.initialCreditAmount } : {}),
    isUnlimitedCredits: input.isUnlimitedCredits,
    usageQuota: storedBands(input.usageQuota),
    suspendedUntilAt: input.suspendedUntilAt ? new Date(input.suspendedUntilAt) : null,
    autoBalanceCronSchedule: input.autoBalanceCronSchedule,
    shouldAutoBalanceTransferCurrentCredits: input.shouldAutoBalanceTransferCurrentCredits,
    maxAutoBalanceCreditTransferAmount: input.maxAutoBalanceCreditTransferAmount,
    autoBalanceCreditAmount: input.autoBalanceCreditAmount,
  };
}
