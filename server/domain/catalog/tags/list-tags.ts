import type { DomainContext } from "../../context.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
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
  return listPage(
    query,
    {
      sieve: tagSieve,
      where: query.includeDeleted ? {} : { isDeleted: false },
      defaultOrder: [{ name: "asc" }],
      findMany: (args) => ctx.db.tag.findMany({ ...args, include: tagInclude }),
      count: (args) => ctx.db.tag.count(args),
    },
    (rows) => rows.map(toTagResponse),
  );
}
