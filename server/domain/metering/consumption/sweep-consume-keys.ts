import type pg from "pg";

/** SPEC.md "Limits": a consume idempotencyKey is remembered 24 hours. */
export const CONSUME_KEY_RETENTION_MS = 24 * 3_600_000;

const TENANTS = `SELECT id FROM "Tenant" ORDER BY id`;
const SWEEP = `DELETE FROM "ConsumeIdempotencyKey" WHERE "tenantId" = $1 AND "createdAt" < $2`;

/**
 * The worker's sweep (every 15 minutes): forgets consume idempotency keys older than 24 hours, so
 * a key is forgotten within the hour after it expires and a repeat then counts as a new consume.
 * Tenant by tenant, so each statement uses the (tenantId, createdAt) index. Returns how many went.
 */
export async function sweepConsumeKeys(pool: pg.Pool, at: Date): Promise<number> {
  const cutoff = new Date(at.getTime() - CONSUME_KEY_RETENTION_MS);
  const { rows } = await pool.query<{ id: string }>({ name: "metering.sweep_tenants", text: TENANTS });
  let deleted = 0;
  for (const { id } of rows) {
    const result = await pool.query({
      name: "metering.sweep_consume_keys",
      text: SWEEP,
      values: [id, cutoff],
    });
    deleted += result.rowCount ?? 0;
  }
  return deleted;
}
