import type { DomainContext } from "../context.ts";
import { pageEnvelope, pageWindow, type TListQuery } from "../../http/pagination.ts";
import { sieveOrderBy, sieveWhere, type SieveWhitelist } from "../../http/sieve.ts";
import { offerStatuses } from "./offer.schemas.ts";
import { toOfferResponses } from "./offer-response.ts";

export const offerSieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  name: { type: "string" },
  description: { type: "string", sortable: false },
  status: { type: "enum", values: offerStatuses },
  version: { type: "integer" },
  isEntitlementTrial: { type: "boolean" },
  allowAnonymousTry: { type: "boolean" },
  consumersMayGrantCredits: { type: "boolean" },
  planSetId: { type: "uuid", nullable: true, sortable: false },
  planName: { type: "string", nullable: true },
  expirationDateTime: { type: "date", nullable: true },
  productId: {
    type: "uuid",
    sortable: false,
    toWhere: (op, value) => {
      const has = { productIds: { has: value?.toLowerCase() ?? "" } };
      return op === "==" ? has : { NOT: has };
    },
  },
  createdAt: { type: "date" },
  updatedAt: { type: "date" },
};

export async function listOffers(ctx: DomainContext, query: TListQuery) {
  const where = sieveWhere(query.filter, offerSieve);
  const orderBy = [...(sieveOrderBy(query.sortOrder, offerSieve) ?? [{ createdAt: "desc" }]), { id: "asc" }];
  const [rows, totalCount] = await Promise.all([
    ctx.db.offer.findMany({ where, orderBy, ...pageWindow(query) }),
    ctx.db.offer.count({ where }),
  ]);
  return pageEnvelope(await toOfferResponses(ctx.db, rows), query, totalCount);
}
