import type { DomainContext } from "../context.ts";
import { pageEnvelope, pageWindow, type TListQuery } from "../../http/pagination.ts";
import { sieveOrderBy, sieveWhere, type SieveWhitelist } from "../../http/sieve.ts";
import { addOnStatuses } from "./add-on.schemas.ts";
import { addOnInclude, toAddOnResponses } from "./add-on-response.ts";

export const addOnSieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  suiteId: { type: "uuid" },
  suiteName: { type: "string", column: "suite.name" },
  code: { type: "string" },
  name: { type: "string" },
  description: { type: "string" },
  status: { type: "enum", values: addOnStatuses },
  archivedAt: { type: "date", nullable: true },
  createdAt: { type: "date" },
  updatedAt: { type: "date" },
  /** Add-ons granting this catalog entry. */
  featureCatalogId: {
    type: "uuid",
    sortable: false,
    toWhere: (op, value) => {
      const has = { featureCatalogIds: { has: value?.toLowerCase() } };
      return op === "==" ? has : { NOT: has };
    },
  },
};

/** Lists add-ons; `referencedBy` is null here (computed on single reads). */
export async function listAddOns(ctx: DomainContext, query: TListQuery) {
  const where = sieveWhere(query.filter, addOnSieve);
  const orderBy = [...(sieveOrderBy(query.sortOrder, addOnSieve) ?? [{ name: "asc" }]), { id: "asc" }];
  const [rows, totalCount] = await Promise.all([
    ctx.db.addOn.findMany({ where, orderBy, include: addOnInclude, ...pageWindow(query) }),
    ctx.db.addOn.count({ where }),
  ]);
  return pageEnvelope(await toAddOnResponses(ctx.db, rows), query, totalCount);
}
