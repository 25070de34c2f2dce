import type { DomainContext } from "../context.ts";
import { pageEnvelope, pageWindow, type TListQuery } from "../../http/pagination.ts";
import { sieveOrderBy, sieveWhere, type SieveWhitelist } from "../../http/sieve.ts";
import { subscriptionWhere, type SubscriptionAccess } from "./subscription-access.ts";
import { toSubscriptionResponse } from "./subscription-response.ts";
import { createdViaValues, subscriptionStates, targetKinds, type TSubscriptionState } from "./subscription.schemas.ts";

export const subscriptionSieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  displayName: { type: "string" },
  url: { type: "string", nullable: true },
  state: { type: "enum", values: subscriptionStates },
  targetKind: { type: "enum", values: targetKinds },
  createdVia: { type: "enum", values: createdViaValues },
  createdAt: { type: "date" },
  updatedAt: { type: "date" },
  revisionNumber: { type: "integer" },
};

export async function listSubscriptions(ctx: DomainContext, access: SubscriptionAccess, query: TListQuery & { state?: TSubscriptionState }) {
  const where = { AND: [sieveWhere(query.filter, subscriptionSieve), subscriptionWhere(access), query.state ? { state: query.state } : {}] };
  const orderBy = [...(sieveOrderBy(query.sortOrder, subscriptionSieve) ?? [{ createdAt: "desc" }]), { id: "asc" }];
  const [rows, totalCount] = await Promise.all([
    ctx.db.webhookSubscription.findMany({ where, orderBy, ...pageWindow(query) }),
    ctx.db.webhookSubscription.count({ where }),
  ]);
  return pageEnvelope(rows.map(toSubscriptionResponse), query, totalCount);
}
