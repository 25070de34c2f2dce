import type { DomainContext } from "../context.ts";
import { pageEnvelope, pageWindow, type TListQuery } from "../../http/pagination.ts";
import { sieveOrderBy, sieveWhere, type SieveWhitelist } from "../../http/sieve.ts";
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
  const where = { AND: [sieveWhere(query.filter, productSieve), query.includeDeleted ? {} : { isDeleted: false }] };
  const orderBy = [...(sieveOrderBy(query.sortOrder, productSieve) ?? [{ name: "asc" }, { productVersion: "asc" }]), { id: "asc" }];
  const [rows, totalCount] = await Promise.all([
    ctx.db.product.findMany({ where, orderBy, ...pageWindow(query) }),
    ctx.db.product.count({ where }),
  ]);
  return pageEnvelope(await toProductResponses(ctx.db, rows), query, totalCount);
}
