import { z } from "zod";
import type { FieldIssue } from "../../../core/errors.ts";
import { metricNameProblem } from "./metric-name.ts";

/**
 * Overage severity, least to most severe. docs/api.md: a quota band at `Critical` blocks further
 * deductions from a balance. Also the values of `overageSeverityStatus`.
 */
export const quotaUsageLevels = ["None", "Low", "Medium", "High", "Critical"] as const;
export const ZQuotaUsageLevel = z.enum(quotaUsageLevels);

/**
 * What happens when usage reaches a tier, ordered least to most restrictive (docs/decisions.md):
 * - `None`: nothing; the tier only prices usage.
 * - `Notify`: usage is allowed and the overage severity is reported (an overage event).
 * - `AllowWithOverage`: usage is allowed past the tier start; with a `fundingBalanceMetric` every
 *   unit past the start is priced and charged to that balance on commit (refused when it cannot
 *   be paid), without one the overage is only reported.
 * - `Block`: consumption past the tier start is refused.
 */
export const quotaUsagePolicies = ["None", "Notify", "AllowWithOverage", "Block"] as const;
export const ZQuotaUsagePolicy = z.enum(quotaUsagePolicies);

const nonNegative = (what: string) =>
  z
    .number({ error: `${what} is a number.` })
    .finite()
    .min(0, `${what} cannot be negative.`);

/** docs/api.md "Usage tier". Usage ranges are half-open: [startUsage, endUsage). */
export const ZUsageTier = z.object({
  name: z.string().trim().min(1, "A tier needs a name.").max(100),
  startUsage: nonNegative("startUsage"),
  startPercentage: nonNegative("startPercentage").default(0),
  /** null: the tier has no end (only the last tier). */
  endUsage: nonNegative("endUsage").nullable().default(null),
  /** 0 while percentage-based enforcement is not used, or for an open last tier. */
  endPercentage: nonNegative("endPercentage").default(0),
  baseCredits: nonNegative("baseCredits").default(0),
  creditsPerUnitOfConsumption: nonNegative("creditsPerUnitOfConsumption").default(0),
  quotaUsageLevel: ZQuotaUsageLevel.default("None"),
  quotaUsagePolicy: ZQuotaUsagePolicy.default("None"),
  /** Metric name of a credit balance on the same entitlement; "" = none (overage only reported). */
  fundingBalanceMetric: z
    .string()
    .trim()
    .max(100)
    .nullable()
    .default("")
    .transform((v) => v ?? ""),
});
export type TUsageTier = z.output<typeof ZUsageTier>;
export type TUsageTierInput = z.input<typeof ZUsageTier>;

export const MAX_USAGE_TIERS = 20;
export const ZUsageTiers = z.array(ZUsageTier).max(MAX_USAGE_TIERS, `At most ${MAX_USAGE_TIERS} tiers.`);

/**
 * The ladder rules that one tier cannot check alone (docs/decisions.md, "Usage tiers"):
 * 1. Tiers are listed by ascending startUsage and are contiguous: each tier but the last has an
 *    endUsage greater than its startUsage, and the next tier starts exactly there (no gap, no
 *    overlap). Only the last tier may be open-ended (endUsage null).
 * 2. Percentages, when used (any non-zero), follow the same ladder: each tier's endPercentage is
 *    greater than its startPercentage and the next tier starts there; the last tier's
 *    endPercentage may be 0 (open).
 * 3. Nothing follows a `Block` tier (it could never be reached).
 * 4. `fundingBalanceMetric` only with `AllowWithOverage`, and it must be a lowercase metric name
 *    of one of `balanceMetricNames` (the credit balances the tiers can draw on).
 */
export function validateUsageTiers(
  tiers: readonly TUsageTier[],
  options: { balanceMetricNames: readonly string[]; path?: string },
): FieldIssue[] {
  const base = options.path ?? "usageTiers";
  const issues: FieldIssue[] = [];
  const at = (i: number, field: string, message: string) =>
    issues.push({ path: `${base}.${i}.${field}`, message });

  tiers.forEach((tier, i) => {
    const last = i === tiers.length - 1;
    if (tier.endUsage === null && !last)
      at(i, "endUsage", "Only the last tier may be open-ended (endUsage null).");
    if (tier.endUsage !== null && tier.endUsage <= tier.startUsage)
      at(i, "endUsage", "endUsage must be greater than startUsage.");
    if (i > 0) {
      const prev = tiers[i - 1];
      if (tier.startUsage < prev.startUsage) at(i, "startUsage", "Tiers are listed by ascending startUsage.");
      else if (prev.endUsage !== null && tier.startUsage !== prev.endUsage) {
        at(
          i,
          "startUsage",
          `Tiers are contiguous: this tier must start at ${prev.endUsage}, where the previous one ends.`,
        );
      }
    }
    if (i > 0 && tiers[i - 1].quotaUsagePolicy === "Block")
      at(i, "quotaUsagePolicy", "No tier can follow a Block tier: it could never be reached.");

    if (tier.fundingBalanceMetric) {
      if (tier.quotaUsagePolicy !== "AllowWithOverage") {
        at(
          i,
          "fundingBalanceMetric",
          "fundingBalanceMetric is only meaningful with quotaUsagePolicy AllowWithOverage.",
        );
      } else {
        const nameProblem = metricNameProblem(tier.fundingBalanceMetric);
        if (nameProblem) at(i, "fundingBalanceMetric", nameProblem);
        else if (!options.balanceMetricNames.includes(tier.fundingBalanceMetric)) {
          const known = options.balanceMetricNames.join(", ") || "none";
          at(
            i,
            "fundingBalanceMetric",
            `"${tier.fundingBalanceMetric}" is not a credit balance metric (balances: ${known}).`,
          );
        }
      }
    }
  });

  const usesPercentages = tiers.some((t) => t.startPercentage !== 0 || t.endPercentage !== 0);
  if (usesPercentages) {
    tiers.forEach((tier, i) => {
      const last = i === tiers.length - 1;
      const open = last && tier.endPercentage === 0;
      if (!open && tier.endPercentage <= tier.startPercentage)
        at(i, "endPercentage", "endPercentage must be greater than startPercentage.");
      if (i > 0 && tier.startPercentage !== tiers[i - 1].endPercentage) {
        at(
          i,
          "startPercentage",
          `Tiers are contiguous: this tier must start at ${tiers[i - 1].endPercentage}%, where the previous one ends.`,
        );
      }
    });
  }
  return issues;
}
