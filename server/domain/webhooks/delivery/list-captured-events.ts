import type { DomainContext } from "../../context.ts";
import { AppError } from "../../../core/errors.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import { parseEnvelope } from "../events/envelope.ts";
import type { TCapturedEvent } from "./delivery.schemas.ts";
import { adminAccess, findSubscription } from "../subscriptions/subscription-access.ts";

/** The capture viewer (tenant admin): the events a capture subscription recorded, newest first. */
export async function listCapturedEvents(
  ctx: DomainContext,
  subscriptionId: string,
  query: Pick<TListQuery, "pageNumber" | "pageSize"> & { eventType?: string },
) {
  const subscription = await findSubscription(ctx, adminAccess, subscriptionId);
  if (subscription.targetKind !== "Capture")
    throw new AppError("subscription.not_applicable", "Only capture subscriptions record events.");
  return listPage(
    query,
    {
      where: {
        subscriptionId,
        status: "captured",
        ...(query.eventType ? { eventType: query.eventType } : {}),
      },
      defaultOrder: [{ createdAt: "desc" }],
      tieBreaker: { id: "desc" },
      findMany: (args) =>
        ctx.db.webhookDelivery.findMany({ ...args, include: { envelope: { select: { payload: true } } } }),
      count: (args) => ctx.db.webhookDelivery.count(args),
    },
    (rows): TCapturedEvent[] =>
      rows.map((row) => ({
        deliveryId: row.id,
        capturedAt: row.createdAt.toISOString(),
        envelope: parseEnvelope(row.envelope.payload),
      })),
  );
}
