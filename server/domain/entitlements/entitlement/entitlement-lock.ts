import type { TenantTx } from "../../../db/tenant-db.ts";
import { AppError, notFound } from "../../../core/errors.ts";

/**
 * Locks an entitlement row for a change of the entitlement itself and returns it: 404 when missing;
 * archived ones are read-only unless allowed.
 */
export async function lockEditableEntitlement(
  tx: TenantTx,
  tenantId: string,
  id: string,
  options: { allowArchived?: boolean } = {},
) {
  const [row] = await tx.$queryRaw<{ id: string; status: string }[]>`
    SELECT id, status FROM "Entitlement" WHERE "tenantId" = ${tenantId}::uuid AND id = ${id}::uuid FOR UPDATE`;
  if (!row) throw notFound("Entitlement");
  if (row.status === "Archived" && !options.allowArchived)
    throw new AppError("entitlement.archived", "An archived entitlement is read-only.");
  const entitlement = await tx.entitlement.findUniqueOrThrow({ where: { id } });
  return entitlement;
}

/**
 * Takes the entitlement's row lock (FOR UPDATE) without reading it, so that operations on its
 * devices, sessions and codes (resets, blocks, code issuance) run one at a time: 404 for an unknown
 * or foreign id, whatever its status.
 */
export async function lockEntitlementRow(
  tx: TenantTx,
  tenantId: string,
  entitlementId: string,
): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Entitlement" WHERE "id" = ${entitlementId}::uuid AND "tenantId" = ${tenantId}::uuid FOR UPDATE`;
  if (rows.length === 0) throw notFound("Entitlement");
}
