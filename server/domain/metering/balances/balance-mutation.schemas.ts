import { z } from "zod";
import { ZBalanceUsageResponse } from "../../catalog/monitored-assets/monitored-asset.schemas.ts";

export const balanceOperations = ["Deposit", "Withdraw", "Set", "ConsumerGrant"] as const;
export type TBalanceOperation = (typeof balanceOperations)[number];

/** Credits with at most 6 decimals (the column's scale), up to 10^12. */
const ZCredits = z
  .number()
  .finite()
  .max(1e12)
  .refine((v) => Math.abs(v * 1e6 - Math.round(v * 1e6)) < 1e-6, "At most 6 decimal places.");

/** deposit and withdraw move a positive amount; set may set the balance to 0. */
export const ZBalanceAmountRequest = z.object({
  amount: ZCredits.refine((v) => v > 0, "amount must be greater than 0."),
});
export const ZBalanceSetRequest = z.object({
  amount: ZCredits.refine((v) => v >= 0, "amount cannot be negative."),
});
export type TBalanceAmountRequest = z.infer<typeof ZBalanceAmountRequest>;

export const ZConsumerCreditGrantRequest = z.object({
  metricName: z.string().min(1).max(200),
  amount: ZCredits.refine((v) => v > 0, "amount must be greater than 0."),
});
export type TConsumerCreditGrantRequest = z.infer<typeof ZConsumerCreditGrantRequest>;

export const ZBalanceMutationResponse = z.object({
  entitlementId: z.string().uuid(),
  metricName: z.string(),
  monitoredAssetId: z.string().uuid(),
  operation: z.enum(balanceOperations),
  amount: z.number(),
  /** totalCredits - creditsUsed after the mutation. */
  remainingCredits: z.number(),
  balanceUsage: ZBalanceUsageResponse,
});
export type TBalanceMutationResponse = z.infer<typeof ZBalanceMutationResponse>;

export const ZBalanceParams = z.object({ id: z.string().uuid(), metricName: z.string().min(1).max(200) });
