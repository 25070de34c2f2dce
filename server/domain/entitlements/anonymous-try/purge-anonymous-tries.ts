import type { Db } from "../../../db/client.ts";
import { now } from "../../../clock.ts";

/** The tries of the batch as two parallel arrays ($1 tenant ids, $2 entitlement ids). */
const TRIES = `unnest($1::uuid[], $2::uuid[]) AS try(tid, eid)`;

/** Rows of one table keyed by the try's tenant and entitlement ids, as `key` (default: the row's ctid). */
const byEntitlement = (table: string, key = "x.ctid") => `
  SELECT ${key} FROM "${table}" x JOIN ${TRIES} ON x."tenantId" = try.tid AND x."entitlementId" = try.eid`;

/**
 * A partitioned table's rows are named by their primary key: a ctid is only unique inside one
 * partition (docs/decisions.md "Ledger partitions").
 */
const CONSUME_KEY = `x."tenantId", x.id, x."createdAt"`;
const HISTORY_KEY = `x.id, x."createdAt"`;
const ARCHIVE_KEY = `x."tenantId", x."entitlementId", x."transactionId", x."receivedAt"`;

/** The try's monitored-asset copies, for the ledgers keyed by meter (their indexes start so). */
const ASSETS = `"MonitoredAsset" ma JOIN ${TRIES} ON ma."tenantId" = try.tid AND ma."entitlementId" = try.eid`;

/**
 * Every table holding rows of one entitlement (plain id columns, no foreign keys to it), in the
 * order they are deleted: the metering ledgers and counters first (the consume ledger and the
 * auto-balance runs are found through the asset copies, so they go before them), sessions before
 * their devices, asset copies last of the metering rows (their meteredUsage and balanceUsage
 * cascade). A new entitlement-owned table belongs here too.
 */
const DEPENDENT_ROWS: { table: string; rows: string; key?: string }[] = [
  { table: "UsageRecord", rows: byEntitlement("UsageRecord") },
  {
    table: "UsageRecordArchive",
    rows: byEntitlement("UsageRecordArchive", ARCHIVE_KEY),
    key: `"tenantId", "entitlementId", "transactionId", "receivedAt"`,
  },
  {
    table: "ConsumeEntry",
    rows: `SELECT ${CONSUME_KEY} FROM "ConsumeEntry" x JOIN ${ASSETS}
      ON x."tenantId" = ma."tenantId" AND x."monitoredAssetId" = ma.id`,
    key: `"tenantId", id, "createdAt"`,
  },
  { table: "ConsumeIdempotencyKey", rows: byEntitlement("ConsumeIdempotencyKey") },
  { table: "MeterPeriod", rows: byEntitlement("MeterPeriod") },
  {
    table: "BalanceHistoryEntry",
    rows: byEntitlement("BalanceHistoryEntry", HISTORY_KEY),
    key: `id, "createdAt"`,
  },
  {
    table: "AutoBalanceRun",
    rows: `SELECT x.ctid FROM "AutoBalanceRun" x
      JOIN "BalanceUsage" b ON x."tenantId" = b."tenantId" AND x."balanceUsageId" = b.id
      JOIN ${ASSETS} ON b."tenantId" = ma."tenantId" AND b."monitoredAssetId" = ma.id`,
  },
  { table: "FeatureRating", rows: byEntitlement("FeatureRating") },
  { table: "OfflineActivation", rows: byEntitlement("OfflineActivation") },
  { table: "LicenseSession", rows: byEntitlement("LicenseSession") },
  { table: "Device", rows: byEntitlement("Device") },
  { table: "ActivationCode", rows: byEntitlement("ActivationCode") },
  { table: "MonitoredAsset", rows: byEntitlement("MonitoredAsset") },
  { table: "AddOnGrant", rows: byEntitlement("AddOnGrant") },
  { table: "AttributionTouch", rows: byEntitlement("AttributionTouch") },
  { table: "EntitlementPlanHistory", rows: byEntitlement("EntitlementPlanHistory") },
  { table: "PlanChangeRequest", rows: byEntitlement("PlanChangeRequest") },
  { table: "EntitlementBilling", rows: byEntitlement("EntitlementBilling") },
  { table: "EntitlementRenewal", rows: byEntitlement("EntitlementRenewal") },
];

/** At most $3 of a table's rows of the batch's tries. */
const deleteSome = ({ table, rows, key }: { table: string; rows: string; key?: string }) =>
  key
    ? `DELETE FROM "${table}" WHERE (${key}) IN (${rows} LIMIT $3)`
    : `DELETE FROM "${table}" WHERE ctid = ANY(ARRAY(${rows} LIMIT $3))`;
const DELETES = DEPENDENT_ROWS.map(deleteSome);

export type PurgeLimits = {
  /** Tries one transaction takes. */
  batchSize?: number;
  /** Dependent rows one transaction deletes at most (a try that uploaded much usage takes several). */
  rowBudget?: number;
  /** Transactions one run takes at most; what is left waits for the next run. */
  maxTransactions?: number;
};
export type PurgeResult = { purged: number; transactions: number };

/**
 * The worker's purge (job `anonymous_try_purge`, docs/decisions.md "Entitlements", anonymous try):
 * anonymous tries whose `anonymousTryPurgeDueAt` has passed and that never converted are deleted
 * with every row they own, across tenants, in bounded transactions: each takes at most
 * `batchSize` tries under `SKIP LOCKED` (a try being converted or renewed right now is skipped and
 * comes back in the next run if still due) and deletes at most `rowBudget` of their rows. A batch
 * that does not fit is committed part-deleted and taken again by the next transaction; its tries
 * are archived in the first one, so nothing converts, renews or activates a try whose data is
 * half gone. The device's claim stays, without the entitlement, so the device cannot start another
 * try of the same offer. docs/api.md names no event for it and none is emitted: a try past its purge
 * date ended 30 days before, so its seats' leases ran out long ago (and a lease that runs out
 * emits nothing).
 */
export async function purgeAnonymousTries(db: Db, limits: PurgeLimits = {}): Promise<PurgeResult> {
  const batchSize = limits.batchSize ?? 100;
  const rowBudget = limits.rowBudget ?? 10_000;
  const maxTransactions = limits.maxTransactions ?? Number.POSITIVE_INFINITY;
  const result: PurgeResult = { purged: 0, transactions: 0 };
  for (;;) {
    const step = await db.$transaction(async (tx) => {
      const at = now();
      const due = await tx.$queryRaw<{ id: string; tenantId: string }[]>`
        SELECT "id", "tenantId" FROM "Entitlement"
        WHERE "anonymousTryPurgeDueAt" <= ${at} AND "isAnonymousTry" AND "convertedToEntitlementId" IS NULL
        ORDER BY "anonymousTryPurgeDueAt", "id" LIMIT ${batchSize} FOR UPDATE SKIP LOCKED`;
      if (!due.length) return { tries: 0, complete: true };
      const tenantIds = due.map((d) => d.tenantId);
      const ids = due.map((d) => d.id);
      await tx.$executeRaw`
        UPDATE "Entitlement" SET "status" = 'Archived', "archivedAt" = coalesce("archivedAt", ${at})
        WHERE "id" = ANY(${ids}::uuid[]) AND "status" <> 'Archived'`;
      let budget = rowBudget;
      for (const statement of DELETES) {
        budget -= await tx.$executeRawUnsafe(statement, tenantIds, ids, budget);
        if (budget <= 0) return { tries: due.length, complete: false };
      }
      await tx.$executeRaw`
        UPDATE "AnonymousTryClaim" SET "entitlementId" = NULL, "activationCodeId" = NULL, "purgedAt" = ${at}
        WHERE ("tenantId", "entitlementId") IN (SELECT * FROM unnest(${tenantIds}::uuid[], ${ids}::uuid[]))`;
      await tx.$executeRaw`DELETE FROM "Entitlement" WHERE "id" = ANY(${ids}::uuid[])`;
      return { tries: due.length, complete: true };
    });
    result.transactions += 1;
    if (step.complete) result.purged += step.tries;
    if ((step.complete && step.tries < batchSize) || result.transactions >= maxTransactions) return result;
  }
}
