import { z } from "zod";
import { quotaUsageLevels } from "../../catalog/monitored-assets/usage-tier.schemas.ts";
import { usageKinds } from "../consumption/consumption.schemas.ts";

/** A credit balance's counters (docs/api.md balanceUsage), as the usage reads and the back office show them. */
export const ZBalanceView = z.object({
  metricName: z.string(),
  balanceUsageId: z.string().uuid(),
  totalCredits: z.number(),
  creditsUsed: z.number(),
  remainingCredits: z.number().nullable().describe("totalCredits - creditsUsed; null when unlimited."),
  cumulativeCreditsUsed: z.number(),
  unfundedCredits: z.number(),
  lastUnfundedAt: z.string().nullable(),
  lastDeposit: z.string().nullable(),
  isUnlimitedCredits: z.boolean(),
  initialCreditAmount: z.number(),
  severity: z
    .enum(quotaUsageLevels)
    .describe("The level of the usageQuota band the remaining credits are in."),
  overageSeverityStatus: z
    .string()
    .describe("The severity last reported (MeteredUsage.OverageStatusChanged)."),
  suspendedUntilAt: z.string().nullable(),
  autoBalanceCronSchedule: z.string().nullable(),
  lastAutoBalanceDate: z.string().nullable(),
});
export type TBalanceView = z.infer<typeof ZBalanceView>;

const meterFields = {
  entitlementId: z.string().uuid(),
  metricName: z.string(),
  usageKind: z.enum(usageKinds),
  periodKey: z.string(),
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  usage: z.number().describe("Usage in the current period (balances: creditsUsed)."),
  limit: z.number().nullable(),
  remaining: z.number().nullable().describe("What is left of the allowance; null = unlimited."),
  severity: z.enum(quotaUsageLevels),
};

/** GET /usage/{sessionId}/{metric}/usage: the current usage snapshot. */
export const ZMeterUsageResponse = z
  .object({
    ...meterFields,
    metricType: z.string(),
    consumedUsage: z.number().describe("Usage consumed through consume decisions in the period."),
    reportedUsage: z.number().describe("Usage uploaded as transaction records in the period."),
    tierName: z.string().nullable(),
    lastReportedSeverity: z.string(),
    suspendedUntilAt: z.string().nullable(),
    consumeCount: z.number().int(),
    recordCount: z.number().int(),
  })
  .describe("The current period's usage of a metric.");
export type TMeterUsageResponse = z.infer<typeof ZMeterUsageResponse>;

/** GET /usage/{sessionId}/{metric}/consumption: what remains (the period's allowance and the balances). */
export const ZMeterConsumptionResponse = z
  .object({
    ...meterFields,
    balances: z
      .array(ZBalanceView)
      .describe("The metric's own balance, or the balances its overage tiers are funded by."),
  })
  .describe("What remains of a metric's allowance and credits.");
export type TMeterConsumptionResponse = z.infer<typeof ZMeterConsumptionResponse>;

/** A tier of a meter, resolved to usage units (percentage tiers of the feature value included). */
export const ZMeterTier = z.object({
  name: z.string(),
  start: z.number(),
  end: z.number().nullable(),
  quotaUsagePolicy: z.string(),
  severity: z.enum(quotaUsageLevels),
  baseCredits: z.number(),
  creditsPerUnitOfConsumption: z.number(),
  fundingBalanceMetric: z.string(),
});

/** One of an entitlement's meters as the back office and the portal show it. */
export const ZEntitlementMeter = z.object({
  monitoredAssetId: z.string().uuid(),
  metricName: z.string(),
  name: z.string(),
  unit: z.string(),
  usageKind: z.enum(usageKinds),
  metricType: z.string(),
  consumptionPeriod: z.string(),
  periodAnchor: z.string(),
  accumulationMethod: z.string(),
  featureCode: z.string().nullable(),
  featureEnabled: z.boolean(),
  percentageBased: z.boolean(),
  tiers: z.array(ZMeterTier),
  current: z.object({
    periodKey: z.string(),
    periodStart: z.string().nullable(),
    periodEnd: z.string().nullable(),
    usage: z.number(),
    consumedUsage: z.number(),
    reportedUsage: z.number(),
    limit: z.number().nullable(),
    remaining: z.number().nullable(),
    tierName: z.string().nullable(),
    severity: z.enum(quotaUsageLevels),
    creditsCharged: z.number(),
  }),
  lastReportedSeverity: z.string(),
  suspendedUntilAt: z.string().nullable(),
  balance: ZBalanceView.nullable(),
  /** The next five auto-balance instants (UTC) of a scheduled balance. */
  autoBalancePreview: z.array(z.string()),
});
export type TEntitlementMeter = z.infer<typeof ZEntitlementMeter>;

export const ZMeterPeriodPoint = z.object({
  periodKey: z.string(),
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  usage: z.number(),
  consumedUsage: z.number(),
  reportedUsage: z.number(),
  creditsCharged: z.number(),
  consumeCount: z.number().int(),
  recordCount: z.number().int(),
});
export type TMeterPeriodPoint = z.infer<typeof ZMeterPeriodPoint>;
