import type { DomainContext } from "../../context.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { COUNT_BEYOND_PAGE, listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
import { activationCodeStatuses } from "./activation-code.schemas.ts";
import { toActivationCodeResponses } from "./activation-code-response.ts";

export const activationCodeSieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  entitlementId: { type: "uuid" },
  code: { type: "string" },
  status: { type: "enum", values: activationCodeStatuses },
  deviceLimit: { type: "integer", nullable: true },
  sequenceNumber: { type: "integer", nullable: true },
  revokedAt: { type: "date", nullable: true },
  createdAt: { type: "date" },
  updatedAt: { type: "date" },
};

/** GET /operational/activation-codes: the tenant's codes, newest first unless sorted. */
export async function listActivationCodes(
  ctx: DomainContext,
  query: TListQuery,
  scope: { entitlementIds?: string[] } = {},
) {
  return listPage(
    query,
    {
      sieve: activationCodeSieve,
      where: scope.entitlementIds ? { entitlementId: { in: scope.entitlementIds } } : {},
      defaultOrder: [{ createdAt: "desc" }],
      findMany: (args) => ctx.db.activationCode.findMany(args),
      count: (args) => ctx.db.activationCode.count(args),
      countBeyondPage: COUNT_BEYOND_PAGE,
    },
    (rows) => toActivationCodeResponses(ctx.db, rows),
  );
}
