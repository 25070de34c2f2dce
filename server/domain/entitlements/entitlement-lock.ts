import type { TenantTx } from "../../db/tenant-db.ts";
import { AppError, notFound } from "../../http/errors.ts";

/** Locks an entitlement row for a change; 404 when missing; archived ones are read-only unless allowed. */
export async function lockEntitlement(tx: TenantTx, tenantId: string, id: string, options: { allowArchived?: boolean } = {}) {
  const [row] = await tx.$queryRaw<{ id: string; status: string }[]>`
    SELECT id, status FROM "Entitlement" WHERE "tenantId" = ${tenantId}::uuid AND id = ${id}::uuid FOR UPDATE`;
  if (!row) throw notFound("Entitlement");
  if (row.status === "Archived" && !options.allowArchived) throw new AppError("entitlement.archived", "An archived entitlement is read-only.");
  const entitlement = await tx.entitlement.findUniqueOrThrow({ where: { id } });
  return entitlement;
}
