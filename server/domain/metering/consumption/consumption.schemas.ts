import { z } from "zod";
import { quotaUsageLevels } from "../../catalog/monitored-assets/usage-tier.schemas.ts";
import { micros } from "../quantity.ts";

/**
 * Why a consumption decision went the way it did (docs/decisions.md "Metering"):
 * - `Allowed`: within the allowance or a tier that only prices or reports;
 * - `AllowedWithOverage`: allowed into an AllowWithOverage tier (charged to its funding balance,
 *   or only reported when it has none);
 * - `QuotaExceeded`: the consume would pass a Block tier's start, the end of the last closed
 *   tier, or (no tiers) the feature value;
 * - `FeatureDisabled`: the feature governing the metric is disabled on the license;
 * - `MeterSuspended`: the meter's suspendedUntilAt is ahead;
 * - `BalanceSuspended`, `CriticalBalance`, `InsufficientCredits`: the balance to charge (the
 *   metric's own, or the tier's funding balance) is suspended, matches a Critical usageQuota
 *   band, or holds fewer credits than the charge;
 * - `FundingUnavailable`: the tier names a funding balance the license does not hold.
 */
export const consumptionReasonCodes = [
  "Allowed",
  "AllowedWithOverage",
  "QuotaExceeded",
  "FeatureDisabled",
  "MeterSuspended",
  "BalanceSuspended",
  "CriticalBalance",
  "InsufficientCredits",
  "FundingUnavailable",
] as const;
export type ConsumptionReasonCode = (typeof consumptionReasonCodes)[number];

export const usageKinds = ["Metered", "Balance", "Tracked"] as const;

/** Every figure of a decision is a number in the metric's units (credits for balances). */
export const ZConsumptionDecision = z
  .object({
    allowed: z.boolean().describe("Whether the amount may be (preview) or was (consume) consumed."),
    reasonCode: z.enum(consumptionReasonCodes),
    committed: z
      .boolean()
      .describe("True when this answer recorded the consumption (a consume that was allowed)."),
    idempotentReplay: z
      .boolean()
      .describe("True when the answer is the one remembered for the consume's idempotencyKey."),
    entitlementId: z.string().uuid(),
    sessionId: z.string().uuid(),
    metricName: z.string(),
    usageKind: z.enum(usageKinds),
    amount: z.number(),
    periodKey: z.string().describe("`lifetime`, or `<consumptionPeriod>:<UTC start>`."),
    periodStart: z.string().nullable(),
    periodEnd: z.string().nullable().describe("Exclusive end of the period; null for a lifetime allowance."),
    usage: z
      .number()
      .describe(
        "Usage in the period after the consume when allowed, else before it (balances: creditsUsed).",
      ),
    limit: z
      .number()
      .nullable()
      .describe("End of the allowance: the first tier threshold that is not `None`, or the feature value."),
    remaining: z
      .number()
      .nullable()
      .describe("What is left of the allowance in the period; null = unlimited."),
    tierName: z.string().nullable(),
    severity: z.enum(quotaUsageLevels),
    overageUnits: z.number().describe("Units of this consume in AllowWithOverage tiers."),
    overageCredits: z.number().describe("Credits the tiers price those units at (charged or only reported)."),
    creditsCharged: z.number(),
    fundingBalanceMetric: z.string().nullable().describe("The credit balance charged, when one is."),
    balanceAfter: z
      .number()
      .nullable()
      .describe("Remaining credits of the charged balance after the consume (before, when refused)."),
    decidedAt: z.string(),
  })
  .describe("A metered consumption decision (docs/decisions.md, Metering).");
export type TConsumptionDecision = z.infer<typeof ZConsumptionDecision>;

/** Quantities in query strings: positive decimals with at most 6 places, up to 10^12. */
const ZQuantityText = z
  .string()
  .trim()
  .superRefine((v, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: "custom", message });
    if (!/^\d+(\.\d+)?$/.test(v)) return fail("A decimal number such as 1 or 2.5.");
    if (/\.\d{7,}$/.test(v)) return fail("At most 6 decimal places.");
    const value = micros(v);
    if (value <= 0n) return fail("Must be greater than 0.");
    if (value > 10n ** 12n * 1_000_000n) return fail("At most 10^12.");
  });

export const ZConsumeQuery = z.object({
  amount: ZQuantityText,
  /** Remembered 24 hours per license (docs/api.md "Limits"). */
  idempotencyKey: z.string().trim().min(1).max(200).optional(),
});
export const ZPreviewConsumeQuery = z.object({
  amount: ZQuantityText.default("1"),
});

export const ZUsageMetricParams = z.object({
  sessionId: z.string().uuid(),
  metric: z.string().min(1).max(200),
});
