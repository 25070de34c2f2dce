import type { DomainContext } from "../context.ts";
import type { Prisma } from "../../db/generated/client.ts";
import type { TenantDbOrTx } from "../../db/tenant-db.ts";

export type CustomerRecord = { id: string; organizationIds: string[] };

/** The customer-user records linked to a platform login (portal user). */
export function customersOfLogin(db: TenantDbOrTx, userId: string): Promise<CustomerRecord[]> {
  return db.customerUser.findMany({ where: { userId }, select: { id: true, organizationIds: true } });
}

/**
 * Ids of the entitlements assigned to these customer users, directly or through an organization
 * they belong to, narrowed by `where` (a status, say).
 */
export async function entitlementIdsOfCustomers(db: TenantDbOrTx, customers: CustomerRecord[], where: Prisma.EntitlementWhereInput = {}): Promise<string[]> {
  if (customers.length === 0) return [];
  const userIds = customers.map((c) => c.id);
  const organizationIds = [...new Set(customers.flatMap((c) => c.organizationIds))];
  const rows = await db.entitlement.findMany({
    where: {
      ...where,
      OR: [
        { customerKind: "User", customerId: { in: userIds } },
        ...(organizationIds.length ? [{ customerKind: "Organization", customerId: { in: organizationIds } }] : []),
      ],
    },
    select: { id: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map((r) => r.id);
}

/**
 * Ids of the entitlements assigned to the signed-in user (consumer principal = portal `User`):
 * those whose customer is a CustomerUser linked to the user, or an organization that user
 * belongs to. Archived entitlements are left out.
 */
export async function consumerEntitlementIds(ctx: DomainContext): Promise<string[]> {
  if (ctx.actor.kind !== "user") return [];
  return entitlementIdsOfCustomers(ctx.db, await customersOfLogin(ctx.db, ctx.actor.id), { status: { not: "Archived" } });
}

/** Whether one entitlement is assigned to the signed-in user (same rule). */
export async function isConsumerEntitlement(ctx: DomainContext, entitlementId: string): Promise<boolean> {
  return (await consumerEntitlementIds(ctx)).includes(entitlementId);
}
