import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { now } from "../../../clock.ts";
import { deliverySummaryInclude, toDeliverySummary } from "./delivery-response.ts";
import { takesDeliveries } from "../subscriptions/subscription-states.ts";

/**
 * Sends a dead letter again with a fresh retry schedule (the attempt counter keeps counting, the
 * envelope and its id stay the same): pending and due now, for the workers' delivery pump. Its
 * subscription must be Active.
 */
export async function requeueDeadLetter(ctx: DomainContext, deliveryId: string) {
  return inTransaction(ctx.db, async (tx) => {
    const delivery = await tx.webhookDelivery.findUnique({
      where: { id: deliveryId },
      include: { subscription: { select: { state: true } } },
    });
    if (!delivery) throw notFound("Delivery");
    if (delivery.status !== "dead")
      throw new AppError(
        "delivery.not_dead_lettered",
        `Only dead letters can be requeued; this delivery is ${delivery.status}.`,
      );
    if (!takesDeliveries(delivery.subscription.state)) {
      throw new AppError(
        "subscription.invalid_state",
        `The subscription is ${delivery.subscription.state}; make it Active before requeueing.`,
      );
    }
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id: deliveryId, status: "dead" },
      data: {
        status: "pending",
        scheduleOffset: delivery.attemptCount,
        nextAttemptAt: now(),
        completedAt: null,
      },
    });
    if (count === 0) throw new AppError("delivery.not_dead_lettered", "The delivery was requeued meanwhile.");
    // Wakes the workers' delivery pumps (a dead letter is requeued by hand, rarely: no hot path).
    await tx.$executeRaw`SELECT pg_notify('webhook_outbox', '')`;
    return toDeliverySummary(
      await tx.webhookDelivery.findUniqueOrThrow({
        where: { id: deliveryId },
        include: deliverySummaryInclude,
      }),
    );
  });
}
