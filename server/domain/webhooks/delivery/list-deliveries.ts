import type { DomainContext } from "../../context.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
import { deliveryStatuses } from "./delivery.schemas.ts";
import { deliverySummaryInclude, toDeliverySummary } from "./delivery-response.ts";
import { subscriptionWhere, type SubscriptionAccess } from "../subscriptions/subscription-access.ts";

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
export async function listDeliveries(
  ctx: DomainContext,
  access: SubscriptionAccess,
  query: TListQuery,
  scope: { status?: string } = {},
) {
  return listPage(
    query,
    {
      sieve: deliverySieve,
      where: {
        AND: [
          access.surface === "integrator" ? { subscription: subscriptionWhere(access) } : {},
          scope.status ? { status: scope.status } : {},
        ],
      },
      defaultOrder: [{ createdAt: "desc" }],
      findMany: (args) => ctx.db.webhookDelivery.findMany({ ...args, include: deliverySummaryInclude }),
      count: (args) => ctx.db.webhookDelivery.count(args),
    },
    (rows) => rows.map(toDeliverySummary),
  );
}
