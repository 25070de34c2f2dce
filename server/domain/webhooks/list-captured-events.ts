import type { DomainContext } from "../context.ts";
import { AppError } from "../../http/errors.ts";
import { pageEnvelope, pageWindow, type TListQuery } from "../../http/pagination.ts";
import { parseEnvelope } from "./envelope.ts";
import type { TCapturedEvent } from "./delivery.schemas.ts";
import { adminAccess, findSubscription } from "./subscription-access.ts";

/** The capture viewer (tenant admin): the events a capture subscription recorded, newest first. */
export async function listCapturedEvents(ctx: DomainContext, subscriptionId: string, query: Pick<TListQuery, "pageNumber" | "pageSize"> & { eventType?: string }) {
  const subscription = await findSubscription(ctx, adminAccess, subscriptionId);
  if (subscription.targetKind !== "Capture") throw new AppError("subscription.not_applicable", "Only capture subscriptions record events.");
  const where = { subscriptionId, status: "captured", ...(query.eventType ? { eventType: query.eventType } : {}) };
  const [rows, totalCount] = await Promise.all([
    ctx.db.webhookDelivery.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      include: { envelope: { select: { payload: true } } },
      ...pageWindow(query),
    }),
    ctx.db.webhookDelivery.count({ where }),
  ]);
  const items: TCapturedEvent[] = rows.map((row) => ({ deliveryId: row.id, capturedAt: row.createdAt.toISOString(), envelope: parseEnvelope(row.envelope.payload) }));
  return pageEnvelope(items, query, totalCount);
}
