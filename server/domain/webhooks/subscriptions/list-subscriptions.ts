import type { DomainContext } from "../../context.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
import { subscriptionWhere, type SubscriptionAccess } from "./subscription-access.ts";
import { toSubscriptionResponse } from "./subscription-response.ts";
import {
  createdViaValues,
  subscriptionStates,
  targetKinds,
  type TSubscriptionState,
} from "./subscription.schemas.ts";

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

export async function listSubscriptions(
  ctx: DomainContext,
  access: SubscriptionAccess,
  query: TListQuery & { state?: TSubscriptionState },
) {
  return listPage(
    query,
    {
      sieve: subscriptionSieve,
      where: { AND: [subscriptionWhere(access), query.state ? { state: query.state } : {}] },
      defaultOrder: [{ createdAt: "desc" }],
      findMany: (args) => ctx.db.webhookSubscription.findMany(args),
      count: (args) => ctx.db.webhookSubscription.count(args),
    },
    (rows) => rows.map(toSubscriptionResponse),
  );
}
