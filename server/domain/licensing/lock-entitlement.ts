import type { TenantTx } from "../../db/tenant-db.ts";
import { notFound } from "../../http/errors.ts";

/**
 * Locks the entitlement row (FOR UPDATE; raw SQL filtered by tenant) so resets, blocks and code
 * issuance on one entitlement run one at a time. 404 for an unknown or foreign id.
 */
export async function lockEntitlement(tx: TenantTx, tenantId: string, entitlementId: string): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Entitlement" WHERE "id" = ${entitlementId}::uuid AND "tenantId" = ${tenantId}::uuid FOR UPDATE`;
  if (rows.length === 0) throw notFound("Entitlement");
}
