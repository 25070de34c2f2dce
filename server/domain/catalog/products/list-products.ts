import type { DomainContext } from "../../context.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
import { productStatuses } from "./product.schemas.ts";
import { toProductResponses } from "./product-response.ts";

export const productSieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  name: { type: "string" },
  description: { type: "string", sortable: false },
  productCode: { type: "string" },
  productVersion: { type: "string" },
  status: { type: "enum", values: productStatuses },
  externalId: { type: "string", nullable: true },
  expirationDate: { type: "date", nullable: true },
  isLocked: { type: "boolean" },
  isDeleted: { type: "boolean" },
  parentProductId: { type: "uuid", nullable: true, sortable: false },
  createdAt: { type: "date" },
  updatedAt: { type: "date" },
  revisionNumber: { type: "integer" },
};

export async function listProducts(ctx: DomainContext, query: TListQuery & { includeDeleted?: boolean }) {
  return listPage(
    query,
    {
      sieve: productSieve,
      where: query.includeDeleted ? {} : { isDeleted: false },
      defaultOrder: [{ name: "asc" }, { productVersion: "asc" }],
      findMany: (args) => ctx.db.product.findMany(args),
      count: (args) => ctx.db.product.count(args),
    },
    (rows) => toProductResponses(ctx.db, rows),
  );
}
