import type { Db } from "../../../db/client.ts";
import { ensureMonthPartition, listMonthPartitions, monthStart } from "../../../db/month-partitions.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const ARCHIVE = "UsageRecordArchive";

/**
 * How long a usage record stays in UsageRecord, the table whose primary key (license,
 * transactionId) is the upload's idempotency rule (docs/decisions.md "Ledger partitions"). A
 * record captured more than 90 days before its upload can no longer count (`TooOld`, docs/decisions.md
 * "Usage, consumption, overage"); ten days more cover clocks and slow batches. A record both captured
 * and received before that moves to UsageRecordArchive: re-sent as it was, it is `TooOld` and counts
 * nothing, exactly as its duplicate would have.
 */
export const USAGE_LIVE_DAYS = 100;

const COLUMNS = `"tenantId", "entitlementId", "transactionId", "sessionId", "uploadSessionId", "apiVersion",
  "creationDateTime", "eventName", "eventData", status, note, "monitoredAssetId", "metricName", amount,
  "periodKey", "creditsPriced", "creditsCharged", "unfundedCredits", "receivedAt"`;

/** The next records to move, locked (skipping any another run holds); over every tenant, each row by its own age. */
const PICK_SQL = `
  SELECT "tenantId"::text AS "tenantId", "entitlementId"::text AS "entitlementId", "transactionId"::text AS "transactionId",
         date_trunc('month', "receivedAt" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month
  FROM "UsageRecord"
  WHERE "receivedAt" < $1::timestamptz AND "creationDateTime" < $1::timestamptz
  LIMIT $2 FOR UPDATE SKIP LOCKED`;

const MOVE_SQL = `
  WITH moved AS (
    DELETE FROM "UsageRecord" u
    USING unnest($1::uuid[], $2::uuid[], $3::bigint[]) AS k(t, e, x)
    WHERE u."tenantId" = k.t AND u."entitlementId" = k.e AND u."transactionId" = k.x
    RETURNING u.*
  )
  INSERT INTO "${ARCHIVE}" (${COLUMNS}) SELECT ${COLUMNS} FROM moved`;

export type UsageArchiveResult = { moved: number; batches: number; partitionsCreated: string[] };

type Picked = { tenantId: string; entitlementId: string; transactionId: string; month: Date };

/**
 * Moves the usage records past USAGE_LIVE_DAYS at `at` into the archive, `batchSize` per
 * transaction (the archive's month made in it when new), at most `maxBatches` transactions per run
 * (a large backlog is worked off over several runs).
 */
export async function archiveUsageRecords(
  db: Db,
  at: Date,
  options: { batchSize?: number; maxBatches?: number } = {},
): Promise<UsageArchiveResult> {
  const batchSize = options.batchSize ?? 5000;
  const maxBatches = options.maxBatches ?? 20;
  const cutoff = new Date(at.getTime() - USAGE_LIVE_DAYS * DAY_MS);
  const result: UsageArchiveResult = { moved: 0, batches: 0, partitionsCreated: [] };
  while (result.batches < maxBatches) {
    result.batches++;
    const picked = await db.$transaction(
      async (tx) => {
        const rows = await tx.$queryRawUnsafe<Picked[]>(PICK_SQL, cutoff, batchSize);
        if (!rows.length) return 0;
        const partitions = await listMonthPartitions(tx, ARCHIVE);
        const months = new Map(rows.map((r) => [r.month.getTime(), monthStart(r.month)]));
        for (const month of months.values()) {
          const name = await ensureMonthPartition(tx, ARCHIVE, month, partitions);
          if (name) result.partitionsCreated.push(name);
        }
        result.moved += await tx.$executeRawUnsafe(
          MOVE_SQL,
          rows.map((r) => r.tenantId),
          rows.map((r) => r.entitlementId),
          rows.map((r) => r.transactionId),
        );
        return rows.length;
        // A batch is well under a second; the default 5 s is too tight on a loaded machine.
      },
      { timeout: 60_000 },
    );
    if (picked < batchSize) break;
  }
  return result;
}
