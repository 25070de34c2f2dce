import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { deliveryDetailInclude, toDeliveryDetail, toIntegratorDeliveryDetail } from "./delivery-response.ts";
import {
  adminAccess,
  subscriptionWhere,
  type SubscriptionAccess,
} from "../subscriptions/subscription-access.ts";

async function findDelivery(
  ctx: DomainContext,
  access: SubscriptionAccess,
  envelopeId: string,
  subscriptionId?: string,
) {
  const rows = await ctx.db.webhookDelivery.findMany({
    where: {
      envelopeId,
      ...(subscriptionId ? { subscriptionId } : {}),
      ...(access.surface === "integrator" ? { subscription: subscriptionWhere(access) } : {}),
    },
    include: deliveryDetailInclude,
    take: 2,
  });
  if (rows.length === 0) throw notFound("Delivery");
  if (rows.length > 1) {
    throw new AppError(
      "delivery.ambiguous_envelope",
      "This envelope reached several subscriptions; pass the subscriptionId query parameter to choose one.",
    );
  }
  return rows[0];
}

/** One delivery with every attempt (docs/api.md `deliveries/{envelopeId}`), tenant-admin view. */
export async function getDelivery(ctx: DomainContext, envelopeId: string, subscriptionId?: string) {
  return toDeliveryDetail(await findDelivery(ctx, adminAccess, envelopeId, subscriptionId));
}

/** The integrator's view: only its own subscriptions, without request body or response excerpts. */
export async function getIntegratorDelivery(
  ctx: DomainContext,
  access: SubscriptionAccess,
  envelopeId: string,
  subscriptionId?: string,
) {
  return toIntegratorDeliveryDetail(await findDelivery(ctx, access, envelopeId, subscriptionId));
}
