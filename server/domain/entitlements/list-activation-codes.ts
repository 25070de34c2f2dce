import type { DomainContext } from "../context.ts";
import { pageEnvelope, pageWindow, type TListQuery } from "../../http/pagination.ts";
import { sieveOrderBy, sieveWhere, type SieveWhitelist } from "../../http/sieve.ts";
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
export async function listActivationCodes(ctx: DomainContext, query: TListQuery, scope: { entitlementIds?: string[] } = {}) {
  const where = { AND: [sieveWhere(query.filter, activationCodeSieve), scope.entitlementIds ? { entitlementId: { in: scope.entitlementIds } } : {}] };
  const orderBy = [...(sieveOrderBy(query.sortOrder, activationCodeSieve) ?? [{ createdAt: "desc" }]), { id: "asc" }];
  const [rows, totalCount] = await Promise.all([
    ctx.db.activationCode.findMany({ where, orderBy, ...pageWindow(query) }),
    ctx.db.activationCode.count({ where }),
  ]);
  return pageEnvelope(await toActivationCodeResponses(ctx.db, rows), query, totalCount);
}
