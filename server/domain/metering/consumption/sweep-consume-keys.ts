import type { Sql, Statement } from "../../../db/sql.ts";

/** docs/api.md "Limits": a consume idempotencyKey is remembered 24 hours. */
export const CONSUME_KEY_RETENTION_MS = 24 * 3_600_000;

const TENANTS: Statement = { name: "metering.sweep_tenants", text: `SELECT id FROM "Tenant" ORDER BY id` };
const SWEEP: Statement = {
  name: "metering.sweep_consume_keys",
  text: `WITH gone AS (DELETE FROM "ConsumeIdempotencyKey" WHERE "tenantId" = $1 AND "createdAt" < $2 RETURNING 1)
SELECT count(*)::int AS deleted FROM gone`,
};

/**
 * The worker's sweep (every 15 minutes): forgets consume idempotency keys older than 24 hours, so
 * a key is forgotten within the hour after it expires and a repeat then counts as a new consume.
 * Tenant by tenant, so each statement uses the (tenantId, createdAt) index. Returns how many went.
 */
export async function sweepConsumeKeys(sql: Sql, at: Date): Promise<number> {
  const cutoff = new Date(at.getTime() - CONSUME_KEY_RETENTION_MS);
  let deleted = 0;
  for (const { id } of await sql.query<{ id: string }>(TENANTS, [])) {
    const [swept] = await sql.query<{ deleted: number }>(SWEEP, [id, cutoff]);
    deleted += swept.deleted;
  }
  return deleted;
}
