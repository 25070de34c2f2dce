import type { DomainContext } from "../../context.ts";
import type { Prisma } from "../../../db/generated/client.ts";
import type { TenantDbOrTx } from "../../../db/tenant-db.ts";

export type CustomerRecord = { id: string; organizationIds: string[] };

/**
 * The one rule of who a signed-in user (portal login) acts for: the customer-user records linked
 * to the login that the vendor has approved and not blocked. A blocked or unapproved record
 * grants nothing, so such a user holds no licenses, codes or sessions on any consumer route and
 * cannot activate interactively (docs/security.md "Customers").
 */
export function customersOfLogin(db: TenantDbOrTx, userId: string): Promise<CustomerRecord[]> {
  return db.customerUser.findMany({
    where: { userId, isApproved: true, isBlocked: false },
    select: { id: true, organizationIds: true },
  });
}

/**
 * Ids of the entitlements assigned to these customer users, directly (customerKind User) or
 * through an organization they belong to (customerKind Organization), narrowed by `where`.
 */
export async function entitlementIdsOfCustomers(
  db: TenantDbOrTx,
  customers: CustomerRecord[],
  where: Prisma.EntitlementWhereInput = {},
): Promise<string[]> {
  if (customers.length === 0) return [];
  const userIds = customers.map((c) => c.id);
  const organizationIds = [...new Set(customers.flatMap((c) => c.organizationIds))];
  const rows = await db.entitlement.findMany({
    where: {
      ...where,
      OR: [
        { customerKind: "User", customerId: { in: userIds } },
        ...(organizationIds.length
          ? [{ customerKind: "Organization", customerId: { in: organizationIds } }]
          : []),
      ],
    },
    select: { id: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map((r) => r.id);
}

/** The entitlements a consumer holds are never Archived ones (deleted, kept for history). */
const consumerEntitlementWhere: Prisma.EntitlementWhereInput = { status: { not: "Archived" } };

/**
 * Ids of the entitlements assigned to the signed-in user (consumer principal = portal `User`):
 * those of the customers the user acts for (customersOfLogin), not Archived, narrowed by `where`.
 */
export async function consumerEntitlementIds(
  ctx: DomainContext,
  where: Prisma.EntitlementWhereInput = {},
): Promise<string[]> {
  if (ctx.actor.kind !== "user") return [];
  return entitlementIdsOfCustomers(ctx.db, await customersOfLogin(ctx.db, ctx.actor.id), {
    AND: [consumerEntitlementWhere, where],
  });
}

/** Whether one entitlement is assigned to the signed-in user (same rule). */
export async function isConsumerEntitlement(ctx: DomainContext, entitlementId: string): Promise<boolean> {
  return (await consumerEntitlementIds(ctx, { id: entitlementId })).length > 0;
}
