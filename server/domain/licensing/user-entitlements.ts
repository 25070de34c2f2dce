import type { TenantDbOrTx } from "../../db/tenant-db.ts";
import { consumerCustomerIds } from "../entitlements/plan-change-requests.ts";

/** Published entitlements assigned to a signed-in user, directly or through their organizations. */
export async function userEntitlementIds(db: TenantDbOrTx, userId: string): Promise<string[]> {
  const customers = await consumerCustomerIds(db, userId);
  if (customers.length === 0) return [];
  const rows = await db.entitlement.findMany({ where: { customerId: { in: customers }, status: "Published" }, select: { id: true }, orderBy: { createdAt: "asc" } });
  return rows.map((r) => r.id);
}
