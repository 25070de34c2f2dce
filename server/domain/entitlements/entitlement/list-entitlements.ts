import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { COUNT_BEYOND_PAGE, listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
import { now } from "../../../clock.ts";
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
  isAnonymousTry: { type: "boolean" },
  convertedToEntitlementId: { type: "uuid", nullable: true, sortable: false },
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
export async function listEntitlements(
  ctx: DomainContext,
  query: TListQuery & { expiringWithinDays?: number },
) {
  const soon =
    query.expiringWithinDays !== undefined
      ? {
          expirationDateTime: {
            gte: now(),
            lte: new Date(now().getTime() + query.expiringWithinDays * 86_400_000),
          },
        }
      : {};
  return listPage(
    query,
    {
      sieve: entitlementSieve,
      where: soon,
      defaultOrder: [{ createdAt: "desc" }],
      findMany: (args) => ctx.db.entitlement.findMany(args),
      count: (args) => ctx.db.entitlement.count(args),
      countBeyondPage: COUNT_BEYOND_PAGE,
    },
    (rows) => toEntitlementResponses(ctx.db, rows),
  );
}

export async function getEntitlement(ctx: DomainContext, id: string) {
  const entitlement = await readEntitlement(ctx.db, id);
  if (!entitlement) throw notFound("Entitlement");
  return entitlement;
}
