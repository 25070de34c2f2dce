import { z } from "zod";
import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { isConsumerEntitlement } from "../../entitlements/consumer/consumer-entitlements.ts";
import { listBalanceHistory } from "../balances/list-balance-history.ts";
import { listEntitlementMeters, meterHistory } from "./list-entitlement-meters.ts";
import { ZEntitlementMeter } from "./meter.schemas.ts";

export const ZConsumerUsage = z.object({
  entitlementId: z.string().uuid(),
  /** Whether the user may add credits to the license's balances (the consumer credit grant). */
  consumersMayGrantCredits: z.boolean(),
  meters: z.array(ZEntitlementMeter),
});
export type TConsumerUsage = z.infer<typeof ZConsumerUsage>;

/**
 * The portal's usage of one of the signed-in user's licenses: its meters as they stand and whether
 * the user may grant credits. A license that is not theirs is 404, like an unknown one.
 */
export async function consumerUsage(ctx: DomainContext, entitlementId: string): Promise<TConsumerUsage> {
  if (!(await isConsumerEntitlement(ctx, entitlementId))) throw notFound("Entitlement");
  const entitlement = await ctx.db.entitlement.findFirstOrThrow({
    where: { id: entitlementId },
    select: { consumersMayGrantCredits: true },
  });
  return {
    entitlementId,
    consumersMayGrantCredits: entitlement.consumersMayGrantCredits,
    meters: await listEntitlementMeters(ctx, entitlementId),
  };
}

/** The portal's usage-per-period chart of one of the user's licenses (else 404). */
export async function consumerMeterHistory(ctx: DomainContext, entitlementId: string, metricName: string) {
  if (!(await isConsumerEntitlement(ctx, entitlementId))) throw notFound("Entitlement");
  return meterHistory(ctx, entitlementId, metricName);
}

/** The portal's balance-over-time chart of one of the user's licenses (else 404). */
export async function consumerBalanceHistory(ctx: DomainContext, entitlementId: string, metricName: string) {
  if (!(await isConsumerEntitlement(ctx, entitlementId))) throw notFound("Entitlement");
  return listBalanceHistory(ctx, entitlementId, metricName);
}
