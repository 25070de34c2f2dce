import { z } from "zod";
import { ZRecordTags } from "../tags/tag.schemas.ts";
import { ZMetricName } from "./metric-name.ts";
import { ZQuotaUsageLevel, ZUsageTier, ZUsageTiers, quotaUsageLevels } from "./usage-tier.schemas.ts";
import { cronScheduleProblem } from "./cron-schedule.ts";
import { isIsoDuration } from "../iso-duration.ts";
import { ZNumeric24_6 } from "../../../core/numeric.ts";

/**
 * How reported values are interpreted and aggregated (docs/api.md metricType; docs/decisions.md):
 * `CumulativeCounter` sums reported increments, `Gauge` keeps the latest reported level,
 * `Maximum` keeps the highest value reported in the period.
 */
export const metricTypes = ["CumulativeCounter", "Gauge", "Maximum"] as const;
export const ZMetricType = z.enum(metricTypes);

/** docs/api.md: blank means the quota never resets (a lifetime allowance). */
export const consumptionPeriods = ["", "minute", "hour", "day", "week", "month", "year"] as const;
/** `Calendar`: periods align with UTC calendar boundaries; `EntitlementStart`: periods count from the entitlement's start. */
export const periodAnchors = ["Calendar", "EntitlementStart"] as const;
/** `Sliced`: each unit is priced at the tier it falls in; `Whole`: the period's units are all priced at the tier the total reaches. */
export const accumulationMethods = ["Sliced", "Whole"] as const;
export const ownerKinds = ["Product", "Entitlement", "Offer"] as const;

/** Credit amounts and thresholds are stored in numeric(24,6) columns. */
const nonNegative = (what: string) => ZNumeric24_6(what).min(0, `${what} cannot be negative.`);
const ZDateTime = z.iso.datetime({ offset: true, message: "An ISO 8601 date-time with a time zone." });

export const ZIsoDuration = z
  .string()
  .trim()
  .max(50)
  .refine(isIsoDuration, "An ISO 8601 duration such as PT15M, P1D or P30D.");

export const ZCronSchedule = z
  .string()
  .trim()
  .max(200)
  .superRefine((value, ctx) => {
    const problem = cronScheduleProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const ZMeteredUsageInput = z.object({
  usageTiers: ZUsageTiers.default([]),
  consumptionPeriod: z
    .enum(consumptionPeriods, {
      error: "consumptionPeriod is minute, hour, day, week, month, year, or blank for a lifetime allowance.",
    })
    .default(""),
  periodAnchor: z.enum(periodAnchors).default("Calendar"),
  accumulationMethod: z.enum(accumulationMethods).default("Sliced"),
  suspendedUntilAt: ZDateTime.nullable().default(null),
});
export type TMeteredUsageInput = z.infer<typeof ZMeteredUsageInput>;

/** docs/api.md usageQuota band: applies while the remaining balance is below endUsage; the lowest matching threshold wins. */
export const ZUsageQuotaBand = z.object({
  endUsage: nonNegative("endUsage"),
  name: z.string().trim().min(1, "A band needs a name.").max(100),
  quotaUsageLevel: ZQuotaUsageLevel.default("None"),
});
export type TUsageQuotaBand = z.infer<typeof ZUsageQuotaBand>;
export const ZUsageQuota = z
  .array(ZUsageQuotaBand)
  .max(20)
  .superRefine((bands, ctx) => {
    const seen = new Set<number>();
    bands.forEach((band, i) => {
      if (seen.has(band.endUsage))
        ctx.addIssue({
          code: "custom",
          path: [i, "endUsage"],
          message: "Two bands cannot share a threshold.",
        });
      seen.add(band.endUsage);
    });
  });

/** The editable part of a balance; credit counters are written by metering and deposits only. */
export const ZBalanceUsageInput = z.object({
  name: z.string().trim().min(1, "A balance needs a name.").max(200),
  description: z.string().max(10_000).default(""),
  unit: z.string().trim().max(50).default(""),
  numberFormat: z.string().trim().max(50).default(""),
  /** Credits available when an entitlement is created; a product's balance template holds this many. */
  initialCreditAmount: nonNegative("initialCreditAmount").default(0),
  isUnlimitedCredits: z.boolean().default(false),
  usageQuota: ZUsageQuota.default([]),
  suspendedUntilAt: ZDateTime.nullable().default(null),
  autoBalanceCronSchedule: ZCronSchedule.nullable().default(null),
  shouldAutoBalanceTransferCurrentCredits: z.boolean().default(false),
  maxAutoBalanceCreditTransferAmount: nonNegative("maxAutoBalanceCreditTransferAmount")
    .nullable()
    .default(null),
  autoBalanceCreditAmount: nonNegative("autoBalanceCreditAmount").nullable().default(null),
});
export type TBalanceUsageInput = z.infer<typeof ZBalanceUsageInput>;

/** Merge-PATCH of a balance: absent or null leaves a field; `clear*` sentinels clear nullable ones. */
export const ZBalanceUsagePatch = z.object({
  name: ZBalanceUsageInput.shape.name.nullable().optional(),
  description: z.string().max(10_000).nullable().optional(),
  unit: z.string().trim().max(50).nullable().optional(),
  numberFormat: z.string().trim().max(50).nullable().optional(),
  initialCreditAmount: nonNegative("initialCreditAmount").nullable().optional(),
  isUnlimitedCredits: z.boolean().nullable().optional(),
  usageQuota: ZUsageQuota.nullable().optional(),
  suspendedUntilAt: ZDateTime.nullable().optional(),
  clearSuspendedUntilAt: z.boolean().optional(),
  autoBalanceCronSchedule: ZCronSchedule.nullable().optional(),
  clearAutoBalanceCronSchedule: z.boolean().optional(),
  shouldAutoBalanceTransferCurrentCredits: z.boolean().nullable().optional(),
  maxAutoBalanceCreditTransferAmount: nonNegative("maxAutoBalanceCreditTransferAmount").nullable().optional(),
  clearMaxAutoBalanceCreditTransferAmount: z.boolean().optional(),
  autoBalanceCreditAmount: nonNegative("autoBalanceCreditAmount").nullable().optional(),
  clearAutoBalanceCreditAmount: z.boolean().optional(),
});
export type TBalanceUsagePatch = z.infer<typeof ZBalanceUsagePatch>;

export const ZMeteredUsagePatch = z.object({
  usageTiers: ZUsageTiers.nullable().optional(),
  consumptionPeriod: ZMeteredUsageInput.shape.consumptionPeriod.removeDefault().nullable().optional(),
  periodAnchor: z.enum(periodAnchors).nullable().optional(),
  accumulationMethod: z.enum(accumulationMethods).nullable().optional(),
  suspendedUntilAt: ZDateTime.nullable().optional(),
  clearSuspendedUntilAt: z.boolean().optional(),
});
export type TMeteredUsagePatch = z.infer<typeof ZMeteredUsagePatch>;

/**
 * What one usage record, and one batch in all, may report of the metric (docs/security.md "Round
 * 3", item 4): positive and below 10^18 (what a meter holds); null = the service defaults.
 */
const ZUsageCeiling = (what: string) =>
  z
    .number({ error: `${what} is a number.` })
    .finite()
    .gt(0, `${what} must be greater than 0.`)
    .lt(1e18, `${what} must be less than 10^18.`);

const assetFields = {
  metricName: ZMetricName,
  name: z.string().trim().min(1, "A monitored asset needs a name.").max(200),
  description: z.string().max(10_000).default(""),
  unit: z.string().trim().max(50).default(""),
  category: z.string().trim().max(100).default(""),
  numberFormat: z.string().trim().max(50).default(""),
  metricType: ZMetricType.default("CumulativeCounter"),
  tags: ZRecordTags,
  allowedBackDatingTolerance: ZIsoDuration.nullable().default(null),
  usageRecordCeiling: ZUsageCeiling("usageRecordCeiling").nullable().default(null),
  usageBatchCeiling: ZUsageCeiling("usageBatchCeiling").nullable().default(null),
};

/**
 * POST /admin/products/{id}/monitored-assets. A monitored asset carries meteredUsage (tiered,
 * period-based) or balanceUsage (a prepaid credit balance), never both; with neither it is a
 * plain tracked metric.
 */
export const ZMonitoredAssetCreateRequest = z
  .object({
    ...assetFields,
    meteredUsage: ZMeteredUsageInput.nullable().default(null),
    balanceUsage: ZBalanceUsageInput.nullable().default(null),
  })
  .refine((v) => !(v.meteredUsage && v.balanceUsage), {
    message: "A monitored asset carries meteredUsage or balanceUsage, not both.",
    path: ["balanceUsage"],
  });
export type TMonitoredAssetCreateRequest = z.infer<typeof ZMonitoredAssetCreateRequest>;

/**
 * Merge-PATCH. `meteredUsage` / `balanceUsage` merge into the existing object, or attach one when
 * the asset has none; `clearMeteredUsage` detaches the metered usage (a balance is removed with
 * DELETE /admin/asset-balances/{balanceId}).
 */
export const ZMonitoredAssetUpdateRequest = z
  .object({
    metricName: ZMetricName.nullable().optional(),
    name: assetFields.name.nullable().optional(),
    description: z.string().max(10_000).nullable().optional(),
    unit: z.string().trim().max(50).nullable().optional(),
    category: z.string().trim().max(100).nullable().optional(),
    numberFormat: z.string().trim().max(50).nullable().optional(),
    metricType: ZMetricType.nullable().optional(),
    tags: ZRecordTags,
    allowedBackDatingTolerance: ZIsoDuration.nullable().optional(),
    clearAllowedBackDatingTolerance: z.boolean().optional(),
    usageRecordCeiling: ZUsageCeiling("usageRecordCeiling").nullable().optional(),
    clearUsageRecordCeiling: z.boolean().optional(),
    usageBatchCeiling: ZUsageCeiling("usageBatchCeiling").nullable().optional(),
    clearUsageBatchCeiling: z.boolean().optional(),
    meteredUsage: ZMeteredUsagePatch.nullable().optional(),
    clearMeteredUsage: z.boolean().optional(),
    balanceUsage: ZBalanceUsagePatch.nullable().optional(),
    revisionNumber: z.number().int().positive().optional(),
  })
  .refine((v) => !(v.meteredUsage && v.balanceUsage), {
    message: "A monitored asset carries meteredUsage or balanceUsage, not both.",
    path: ["balanceUsage"],
  })
  .refine((v) => !(v.meteredUsage && v.clearMeteredUsage), {
    message: "Give either meteredUsage or clearMeteredUsage, not both.",
    path: ["clearMeteredUsage"],
  });
export type TMonitoredAssetUpdateRequest = z.infer<typeof ZMonitoredAssetUpdateRequest>;

export const ZMeteredUsageResponse = z.object({
  id: z.string().uuid(),
  suspendedUntilAt: z.string().nullable(),
  lastReportedOverageSeverityStatus: z.string(),
  usageTiers: z.array(ZUsageTier),
  consumptionPeriod: z.string(),
  periodAnchor: z.string(),
  accumulationMethod: z.string(),
});

export const ZBalanceUsageResponse = z.object({
  id: z.string().uuid(),
  name: z.string(),
  description: z.string(),
  creditsUsed: z.number(),
  totalCredits: z.number(),
  cumulativeCreditsUsed: z.number(),
  unfundedCredits: z.number(),
  lastUnfundedAt: z.string().nullable(),
  unit: z.string(),
  numberFormat: z.string(),
  lastDeposit: z.string().nullable(),
  usageQuota: z.array(
    z.object({ endUsage: z.number(), name: z.string(), quotaUsageLevel: z.enum(quotaUsageLevels) }),
  ),
  suspendedUntilAt: z.string().nullable(),
  overageSeverityStatus: z.string(),
  initialCreditAmount: z.number(),
  isUnlimitedCredits: z.boolean(),
  autoBalanceCronSchedule: z.string().nullable(),
  lastAutoBalanceDate: z.string().nullable(),
  shouldAutoBalanceTransferCurrentCredits: z.boolean(),
  maxAutoBalanceCreditTransferAmount: z.number().nullable(),
  autoBalanceCreditAmount: z.number().nullable(),
});

export const ZMonitoredAssetResponse = z.object({
  id: z.string().uuid(),
  entitlementId: z.string().uuid().nullable(),
  offerId: z.string().uuid().nullable(),
  productId: z.string().uuid().nullable(),
  /** The product asset an entitlement's or offer's copy was made from. */
  sourceAssetId: z.string().uuid().nullable(),
  metricName: z.string(),
  name: z.string(),
  description: z.string(),
  unit: z.string(),
  category: z.string(),
  numberFormat: z.string(),
  tags: z.array(z.string()),
  metricType: z.string(),
  meteredUsageId: z.string().uuid().nullable(),
  balanceUsageId: z.string().uuid().nullable(),
  meteredUsage: ZMeteredUsageResponse.nullable(),
  balanceUsage: ZBalanceUsageResponse.nullable(),
  allowedBackDatingTolerance: z.string().nullable(),
  /** null: the service defaults (10^9 per record, 10^12 per batch). */
  usageRecordCeiling: z.number().nullable(),
  usageBatchCeiling: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  revisionNumber: z.number().int(),
});
export type TMonitoredAssetResponse = z.infer<typeof ZMonitoredAssetResponse>;

export const ZMonitoredAssetIdParams = z.object({ id: z.string().uuid() });
export const ZAssetBalanceParams = z.object({ balanceId: z.string().uuid() });
