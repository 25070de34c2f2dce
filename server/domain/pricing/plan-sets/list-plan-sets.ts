import type { DomainContext } from "../../context.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
import { planSetStatuses } from "./plan-set.schemas.ts";
import { planSetInclude, toPlanSetResponses } from "./plan-set-response.ts";

export const planSetSieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  suiteId: { type: "uuid" },
  suiteName: { type: "string", column: "suite.name" },
  name: { type: "string" },
  description: { type: "string" },
  status: { type: "enum", values: planSetStatuses },
  revision: { type: "integer" },
  revisionDate: { type: "date" },
  sourcePlanSetId: { type: "uuid", nullable: true, sortable: false },
  publishedAt: { type: "date", nullable: true },
  archivedAt: { type: "date", nullable: true },
  createdAt: { type: "date" },
  updatedAt: { type: "date" },
  /** Revisions of suites that have this product among their members. */
  productId: {
    type: "uuid",
    sortable: false,
    toWhere: (op, value) => {
      const some = { suite: { members: { some: { productId: value?.toLowerCase() } } } };
      return op === "==" ? some : { NOT: some };
    },
  },
};

/** One page of revisions matching `scope` and the Sieve filter. */
export async function planSetPage(
  ctx: DomainContext,
  query: TListQuery,
  scope: Record<string, unknown>,
  defaultOrder: Record<string, string>[],
) {
  return listPage(
    query,
    {
      sieve: planSetSieve,
      where: scope,
      defaultOrder,
      findMany: (args) => ctx.db.usagePlanSet.findMany({ ...args, include: planSetInclude }),
      count: (args) => ctx.db.usagePlanSet.count(args),
    },
    (rows) => toPlanSetResponses(ctx.db, rows),
  );
}

/** Every revision of every suite (implicit suites' included), newest first by default. */
export async function listPlanSets(ctx: DomainContext, query: TListQuery) {
  return planSetPage(ctx, query, {}, [{ revisionDate: "desc" }, { revision: "desc" }]);
}
