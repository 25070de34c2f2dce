import type { DomainContext } from "../context.ts";
import { pageEnvelope, pageWindow, type TListQuery } from "../../http/pagination.ts";
import { sieveOrderBy, sieveWhere, type SieveWhitelist } from "../../http/sieve.ts";
import { deliveryStatuses } from "./delivery.schemas.ts";
import { deliverySummaryInclude, toDeliverySummary } from "./delivery-response.ts";
import { subscriptionWhere, type SubscriptionAccess } from "./subscription-access.ts";

export const deliverySieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  envelopeId: { type: "uuid" },
  subscriptionId: { type: "uuid" },
  eventType: { type: "string" },
  entityId: { type: "string" },
  status: { type: "enum", values: deliveryStatuses },
  attemptCount: { type: "integer" },
  lastResponseStatus: { type: "integer", nullable: true },
  nextAttemptAt: { type: "date", nullable: true },
  lastAttemptAt: { type: "date", nullable: true },
  completedAt: { type: "date", nullable: true },
  createdAt: { type: "date" },
};

/** Delivery history: the whole tenant's (admin) or across the credential's own subscriptions (integrator). */
export async function listDeliveries(ctx: DomainContext, access: SubscriptionAccess, query: TListQuery, scope: { status?: string } = {}) {
  const where = {
    AND: [
      sieveWhere(query.filter, deliverySieve),
      access.surface === "integrator" ? { subscription: subscriptionWhere(access) } : {},
      scope.status ? { status: scope.status } : {},
    ],
  };
  const orderBy = [...(sieveOrderBy(query.sortOrder, deliverySieve) ?? [{ createdAt: "desc" }]), { id: "asc" }];
  const [rows, totalCount] = await Promise.all([
    ctx.db.webhookDelivery.findMany({ where, orderBy, include: deliverySummaryInclude, ...pageWindow(query) }),
    ctx.db.webhookDelivery.count({ where }),
  ]);
  return pageEnvelope(rows.map(toDeliverySummary), query, totalCount);
}
