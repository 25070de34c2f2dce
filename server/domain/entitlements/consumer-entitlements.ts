import type { DomainContext } from "../context.ts";

/**
 * Ids of the entitlements assigned to the signed-in user (consumer principal = portal `User`):
 * those whose customer is a CustomerUser linked to the user, or an organization that user
 * belongs to. Archived entitlements are left out.
 */
export async function consumerEntitlementIds(ctx: DomainContext): Promise<string[]> {
  if (ctx.actor.kind !== "user") return [];
  const customers = await ctx.db.customerUser.findMany({ where: { userId: ctx.actor.id }, select: { id: true, organizationIds: true } });
  if (customers.length === 0) return [];
  const userIds = customers.map((c) => c.id);
  const organizationIds = [...new Set(customers.flatMap((c) => c.organizationIds))];
  const rows = await ctx.db.entitlement.findMany({
    where: {
      status: { not: "Archived" },
      OR: [
        { customerKind: "User", customerId: { in: userIds } },
        ...(organizationIds.length ? [{ customerKind: "Organization", customerId: { in: organizationIds } }] : []),
      ],
    },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/** Whether one entitlement is assigned to the signed-in user (same rule). */
export async function isConsumerEntitlement(ctx: DomainContext, entitlementId: string): Promise<boolean> {
  return (await consumerEntitlementIds(ctx)).includes(entitlementId);
}
