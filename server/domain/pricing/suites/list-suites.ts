import type { DomainContext } from "../../context.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
import { suiteInclude, toSuiteResponses } from "./suite-response.ts";

export const suiteSieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  code: { type: "string" },
  name: { type: "string" },
  description: { type: "string" },
  isImplicit: { type: "boolean" },
  createdAt: { type: "date" },
  updatedAt: { type: "date" },
  /** Suites that have this product among their members. */
  productId: {
    type: "uuid",
    sortable: false,
    toWhere: (op, value) => {
      const some = { members: { some: { productId: value?.toLowerCase() } } };
      return op === "==" ? some : { NOT: some };
    },
  },
};

/** docs/api.md: implicit suites are listed only with `includeImplicit=true`. */
export async function listSuites(ctx: DomainContext, query: TListQuery & { includeImplicit?: boolean }) {
  return listPage(
    query,
    {
      sieve: suiteSieve,
      where: query.includeImplicit ? {} : { isImplicit: false },
      defaultOrder: [{ name: "asc" }],
      findMany: (args) => ctx.db.suite.findMany({ ...args, include: suiteInclude }),
      count: (args) => ctx.db.suite.count(args),
    },
    (rows) => toSuiteResponses(ctx.db, rows),
  );
}
