import type { DomainContext } from "../context.ts";
import { pageEnvelope, pageWindow, type TListQuery } from "../../http/pagination.ts";
import { sieveOrderBy, sieveWhere, type SieveWhitelist } from "../../http/sieve.ts";
import { tagScopes } from "./tag.schemas.ts";
import { tagInclude, toTagResponse } from "./tag-response.ts";

export const tagSieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  name: { type: "string" },
  scope: { type: "enum", values: tagScopes },
  color: { type: "string", nullable: true },
  isDeleted: { type: "boolean" },
  createdAt: { type: "date" },
  updatedAt: { type: "date" },
  revisionNumber: { type: "integer" },
  usageCount: { type: "integer", column: "assignments._count", filterable: false },
};

export async function listTags(ctx: DomainContext, query: TListQuery & { includeDeleted?: boolean }) {
  const where = { AND: [sieveWhere(query.filter, tagSieve), query.includeDeleted ? {} : { isDeleted: false }] };
  const orderBy = [...(sieveOrderBy(query.sortOrder, tagSieve) ?? [{ name: "asc" }]), { id: "asc" }];
  const [rows, totalCount] = await Promise.all([
    ctx.db.tag.findMany({ where, orderBy, include: tagInclude, ...pageWindow(query) }),
    ctx.db.tag.count({ where }),
  ]);
  return pageEnvelope(rows.map(toTagResponse), query, totalCount);
}
