import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { now } from "../../../clock.ts";
import { formatQuantity } from "../../../core/format.ts";
import type { TConsumerCreditGrantRequest } from "./balance-mutation.schemas.ts";
import { isConsumerEntitlement } from "../../entitlements/consumer/consumer-entitlements.ts";
import { mutateBalance } from "./mutate-balance.ts";
import { micros, toDecimalString } from "../quantity.ts";
import { consumerGrantLimits, grantPeriodStart } from "../../entitlements/offers/consumer-grant-limits.ts";

/** Every decimal a grant can carry (micros), with thousands separators: "1,000", "50.000001". */
const credits = (value: bigint) => formatQuantity(toDecimalString(value));

/**
 * POST /consumer/me/entitlements/{id}/credit-grants: the signed-in user adds credits to a balance
 * of an entitlement assigned to them, when the entitlement (from its offer) has
 * consumersMayGrantCredits, within its grant limits (consumer-grant-limits.ts): at most
 * `perGrant` at once and `perMonth` per balance per calendar month (UTC). Same arithmetic as a
 * deposit; recorded as `ConsumerGrant` with the user who granted it.
 *
 * The balance row is locked before the month's grants are summed, so parallel grants queue and
 * each sees the ones before it: together they can never pass the monthly limit.
 * An entitlement that is not the user's answers 404, like an unknown one.
 */
export async function grantConsumerCredits(
  ctx: DomainContext,
  entitlementId: string,
  input: TConsumerCreditGrantRequest,
) {
  return inTransaction(ctx.db, async (tx) => {
    const txCtx = { ...ctx, db: tx };
    if (!(await isConsumerEntitlement(txCtx, entitlementId))) throw notFound("Entitlement");
    const entitlement = await tx.entitlement.findFirstOrThrow({
      where: { id: entitlementId },
      select: {
        consumersMayGrantCredits: true,
        consumerGrantLimitPerGrant: true,
        consumerGrantLimitPerMonth: true,
      },
    });
    if (!entitlement.consumersMayGrantCredits) {
      throw new AppError(
        "balance.consumer_grant_not_allowed",
        "This entitlement's offer does not let consumers grant credits.",
      );
    }
    const limits = consumerGrantLimits(entitlement);
    const amount = micros(input.amount);
    if (amount > micros(limits.perGrant)) {
      throw new AppError(
        "balance.consumer_grant_limit_exceeded",
        `You can add at most ${credits(micros(limits.perGrant))} credits at a time; ${credits(amount)} is more than that.`,
      );
    }
    const balance = await tx.balanceUsage.findFirst({
      where: { monitoredAsset: { ownerKind: "Entitlement", entitlementId, metricName: input.metricName } },
      select: { id: true },
    });
    if (balance) {
      await tx.$queryRaw`SELECT 1 FROM "BalanceUsage" WHERE "id" = ${balance.id}::uuid AND "tenantId" = ${ctx.tenantId}::uuid FOR UPDATE`;
      const granted = await tx.balanceHistoryEntry.aggregate({
        _sum: { amount: true },
        where: {
          balanceUsageId: balance.id,
          operation: "ConsumerGrant",
          createdAt: { gte: grantPeriodStart(now()) },
        },
      });
      const alreadyGranted = micros(granted._sum.amount?.toFixed(6) ?? "0");
      const perMonth = micros(limits.perMonth);
      if (alreadyGranted + amount > perMonth) {
        const left = perMonth > alreadyGranted ? perMonth - alreadyGranted : 0n;
        throw new AppError(
          "balance.consumer_grant_limit_exceeded",
          `You can add at most ${credits(perMonth)} credits per month; ${credits(left)} are left this month, so ${credits(amount)} is too many.`,
        );
      }
    }
    // A balance that does not exist is refused by mutateBalance (404), like a deposit's.
    return mutateBalance(txCtx, entitlementId, input.metricName, "ConsumerGrant", input.amount);
  });
}
