import type { DomainContext } from "../context.ts";
import { notFound } from "../../http/errors.ts";
import { pageEnvelope, pageWindow, type TListQuery } from "../../http/pagination.ts";
import { sieveOrderBy, sieveWhere, type SieveWhitelist } from "../../http/sieve.ts";
import { now } from "../../clock.ts";
import { entitlementStatuses } from "./entitlement.schemas.ts";
import { readEntitlement, toEntitlementResponses } from "./entitlement-response.ts";

export const entitlementSieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  name: { type: "string" },
  status: { type: "enum", values: entitlementStatuses },
  subscriptionStatus: { type: "string" },
  customerId: { type: "uuid", nullable: true },
  customerKind: { type: "string", nullable: true },
  sourceOfferId: { type: "uuid", nullable: true },
  originOfferId: { type: "uuid", nullable: true, sortable: false },
  planSetId: { type: "uuid", nullable: true, sortable: false },
  planName: { type: "string", nullable: true },
  reference: { type: "string", nullable: true },
  externalReference: { type: "string", nullable: true },
  licenseKey: { type: "string", nullable: true, sortable: false },
  isEntitlementTrial: { type: "boolean" },
  activationsEnabled: { type: "boolean" },
  transferCount: { type: "integer" },
  notValidBeforeDateTime: { type: "date", nullable: true },
  expirationDateTime: { type: "date", nullable: true },
  createdAt: { type: "date" },
  updatedAt: { type: "date" },
};

/**
 * GET /admin/entitlements: Sieve filters (customer, status, offer...) plus `expiringWithinDays`,
 * the back office's "expiring soon": entitlements still valid that expire within that many days.
 */
export async function listEntitlements(ctx: DomainContext, query: TListQuery & { expiringWithinDays?: number }) {
  const soon = query.expiringWithinDays !== undefined
    ? { expirationDateTime: { gte: now(), lte: new Date(now().getTime() + query.expiringWithinDays * 86_400_000) } }
    : {};
  const where = { AND: [sieveWhere(query.filter, entitlementSieve), soon] };
  const orderBy = [...(sieveOrderBy(query.sortOrder, entitlementSieve) ?? [{ createdAt: "desc" }]), { id: "asc" }];
  const [rows, totalCount] = await Promise.all([
    ctx.db.entitlement.findMany({ where, orderBy, ...pageWindow(query) }),
    ctx.db.entitlement.count({ where }),
  ]);
  return pageEnvelope(await toEntitlementResponses(ctx.db, rows), query, totalCount);
}

export async function getEntitlement(ctx: DomainContext, id: string) {
  const entitlement = await readEntitlement(ctx.db, id);
  if (!entitlement) throw notFound("Entitlement");
  return entitlement;
}
