import type { DomainContext } from "../context.ts";
import { pageEnvelope, pageWindow, type TListQuery } from "../../http/pagination.ts";
import { sieveOrderBy, sieveWhere, type SieveWhitelist } from "../../http/sieve.ts";
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

/** SPEC.md: implicit suites are listed only with `includeImplicit=true`. */
export async function listSuites(ctx: DomainContext, query: TListQuery & { includeImplicit?: boolean }) {
  const where = { AND: [sieveWhere(query.filter, suiteSieve), query.includeImplicit ? {} : { isImplicit: false }] };
  const orderBy = [...(sieveOrderBy(query.sortOrder, suiteSieve) ?? [{ name: "asc" }]), { id: "asc" }];
  const [rows, totalCount] = await Promise.all([
    ctx.db.suite.findMany({ where, orderBy, include: suiteInclude, ...pageWindow(query) }),
    ctx.db.suite.count({ where }),
  ]);
  return pageEnvelope(await toSuiteResponses(ctx.db, rows), query, totalCount);
}
