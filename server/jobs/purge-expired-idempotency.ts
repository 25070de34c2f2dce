import type { Task } from "graphile-worker";
import { db as processDb, type Db } from "../db/client.ts";
import { now } from "../clock.ts";

/** Rows per DELETE: keeps each statement short so it never holds many row locks for long. */
const defaultBatchSize = 1000;

/**
 * Deletes idempotency records of every tenant whose `expiresAt` has passed, in batches, and returns
 * how many went. Rows another transaction holds are skipped (the next run gets them).
 */
export async function purgeExpiredIdempotency(
  db: Pick<Db, "$executeRaw">,
  at: Date,
  batchSize = defaultBatchSize,
): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM "IdempotencyRecord"
      WHERE "id" IN (
        SELECT "id" FROM "IdempotencyRecord"
        WHERE "expiresAt" < ${at}
        ORDER BY "expiresAt"
        LIMIT ${batchSize}
        FOR UPDATE SKIP LOCKED
      )`;
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

/** Cron task (every 15 minutes, see server/worker.ts). */
export const purge_expired_idempotency: Task = async (_payload, helpers) => {
  const deleted = await purgeExpiredIdempotency(processDb(), now());
  if (deleted > 0) helpers.logger.info(`purged ${deleted} expired idempotency record(s)`);
};
