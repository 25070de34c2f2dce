import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import type { TConsumerCreditGrantRequest } from "./balance-mutation.schemas.ts";
import { isConsumerEntitlement } from "../../entitlements/consumer/consumer-entitlements.ts";
import { mutateBalance } from "./mutate-balance.ts";

/**
 * POST /consumer/me/entitlements/{id}/credit-grants: the signed-in user adds credits to a balance
 * of an entitlement assigned to them, when the entitlement (from its offer) has
 * consumersMayGrantCredits. Same arithmetic as a deposit; recorded as `ConsumerGrant`.
 * An entitlement that is not the user's answers 404, like an unknown one.
 */
export async function grantConsumerCredits(
  ctx: DomainContext,
  entitlementId: string,
  input: TConsumerCreditGrantRequest,
) {
  if (!(await isConsumerEntitlement(ctx, entitlementId))) throw notFound("Entitlement");
  const entitlement = await ctx.db.entitlement.findFirstOrThrow({
    where: { id: entitlementId },
    select: { consumersMayGrantCredits: true },
  });
  if (!entitlement.consumersMayGrantCredits) {
    throw new AppError(
      "balance.consumer_grant_not_allowed",
      "This entitlement's offer does not let consumers grant credits.",
    );
  }
  return mutateBalance(ctx, entitlementId, input.metricName, "ConsumerGrant", input.amount);
}
