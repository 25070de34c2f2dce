import type { DomainContext } from "../../context.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
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
  return listPage(
    query,
    {
      sieve: offerSieve,
      defaultOrder: [{ createdAt: "desc" }],
      findMany: (args) => ctx.db.offer.findMany(args),
      count: (args) => ctx.db.offer.count(args),
    },
    (rows) => toOfferResponses(ctx.db, rows),
  );
}
