import type { TenantTx } from "../../../db/tenant-db.ts";
import { notFound } from "../../../core/errors.ts";

export type LockedSuite = { id: string; isImplicit: boolean; implicitProductId: string | null };

/**
 * Locks a suite row for the rest of the transaction. Everything that changes a suite's members
 * or the status and numbering of its plan-set revisions takes this lock first, so two such
 * changes of one suite never interleave (one published revision per suite, revision numbers
 * without gaps or duplicates). Unknown or foreign suites are 404.
 */
export async function lockSuite(tx: TenantTx, tenantId: string, suiteId: string): Promise<LockedSuite> {
  const rows = await tx.$queryRaw<LockedSuite[]>`
    SELECT id, "isImplicit", "implicitProductId" FROM "Suite"
    WHERE "tenantId" = ${tenantId}::uuid AND id = ${suiteId}::uuid
    FOR UPDATE`;
  if (rows.length === 0) throw notFound("Suite");
  return rows[0];
}
