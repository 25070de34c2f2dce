import type { Db } from "../../db/client.ts";

/**
 * Deletes counter rows whose window ended before `at`, in batches (a statement never holds many
 * row locks), and returns how many went. Counters belong to no tenant; a live window is never
 * touched, so a sweep cannot forgive anyone early.
 */
export async function sweepRateLimitCounters(
  db: Pick<Db, "$executeRaw">,
  at: Date,
  batchSize = 5000,
): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM "RateLimitCounter" WHERE ("bucket", "windowStart") IN (
        SELECT "bucket", "windowStart" FROM "RateLimitCounter"
        WHERE "windowStart" < ${at}
          AND "windowStart" + make_interval(secs => "windowSeconds") <= ${at}
        LIMIT ${batchSize}
        FOR UPDATE SKIP LOCKED)`;
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
