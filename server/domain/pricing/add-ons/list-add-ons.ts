import type { DomainContext } from "../../context.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
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
  return listPage(
    query,
    {
      sieve: addOnSieve,
      defaultOrder: [{ name: "asc" }],
      findMany: (args) => ctx.db.addOn.findMany({ ...args, include: addOnInclude }),
      count: (args) => ctx.db.addOn.count(args),
    },
    (rows) => toAddOnResponses(ctx.db, rows),
  );
}
