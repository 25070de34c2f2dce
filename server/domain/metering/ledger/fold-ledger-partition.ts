import type { Db } from "../../../db/client.ts";

/**
 * Before a ledger month past retention is dropped, what it holds is folded into the bases the
 * counter rebuild starts from (rebuild-counters.ts), so "the counters are the ledger replayed"
 * still holds once the ledger's oldest months are gone (docs/operations.md "Data at scale:
 * retention, partitions and autovacuum"):
 * - `BalanceHistoryEntry`: per balance, the totals after its last entry of the month (entries carry
 *   them; months are folded oldest first, so the last fold holds the latest) and what the month's
 *   charges used and left unfunded, added up.
 * - `ConsumeEntry`: per meter period, consumes, their count and their credits, added up.
 * - `UsageRecordArchive`: per meter period, the counted records by the metric's type (Sum: added;
 *   Maximum: the highest; Gauge: the latest by creation time, then transaction id), their count and
 *   credits.
 * One transaction per partition, recorded in `LedgerFold`: a run stopped between the fold and the
 * drop folds nothing twice. The partition is read by its own name, attached or already detached.
 */
export type FoldedTable = "BalanceHistoryEntry" | "ConsumeEntry" | "UsageRecordArchive";

/** Operations that change a balance's credits rather than charge it (mutate-balance.ts). */
const MUTATIONS = `('Deposit', 'ConsumerGrant', 'Withdraw', 'Set', 'AutoBalance')`;

const foldSql: Record<FoldedTable, (partition: string) => string> = {
  BalanceHistoryEntry: (p) => `
    WITH last AS (
      SELECT DISTINCT ON ("balanceUsageId") "balanceUsageId", "tenantId", "totalCreditsAfter", "creditsUsedAfter"
      FROM "${p}" ORDER BY "balanceUsageId", seq DESC
    ), month AS (
      SELECT "balanceUsageId",
             coalesce(sum(amount) FILTER (WHERE operation NOT IN ${MUTATIONS}), 0) AS charged,
             sum("unfundedAmount") AS unfunded
      FROM "${p}" GROUP BY "balanceUsageId"
    )
    INSERT INTO "BalanceLedgerBase" AS b
      ("balanceUsageId", "tenantId", "totalCredits", "creditsUsed", "cumulativeCreditsUsed", "unfundedCredits")
    SELECT l."balanceUsageId", l."tenantId", l."totalCreditsAfter", l."creditsUsedAfter", m.charged, m.unfunded
    FROM last l JOIN month m USING ("balanceUsageId")
    ON CONFLICT ("balanceUsageId") DO UPDATE SET
      "totalCredits" = EXCLUDED."totalCredits",
      "creditsUsed" = EXCLUDED."creditsUsed",
      "cumulativeCreditsUsed" = b."cumulativeCreditsUsed" + EXCLUDED."cumulativeCreditsUsed",
      "unfundedCredits" = b."unfundedCredits" + EXCLUDED."unfundedCredits",
      "updatedAt" = now()`,

  ConsumeEntry: (p) => `
    INSERT INTO "MeterLedgerBase" AS b
      ("monitoredAssetId", "periodKey", "tenantId", "metricType", "consumedUsage", "consumeCount",
       "creditsPriced", "creditsCharged")
    SELECT c."monitoredAssetId", c."periodKey", min(c."tenantId"::text)::uuid, coalesce(min(m."metricType"), 'Sum'),
           sum(c.amount), count(*)::int, sum(c."creditsPriced"), sum(c."creditsCharged")
    FROM "${p}" c LEFT JOIN "MonitoredAsset" m ON m.id = c."monitoredAssetId"
    GROUP BY c."monitoredAssetId", c."periodKey"
    ON CONFLICT ("monitoredAssetId", "periodKey") DO UPDATE SET
      "consumedUsage" = b."consumedUsage" + EXCLUDED."consumedUsage",
      "consumeCount" = b."consumeCount" + EXCLUDED."consumeCount",
      "creditsPriced" = b."creditsPriced" + EXCLUDED."creditsPriced",
      "creditsCharged" = b."creditsCharged" + EXCLUDED."creditsCharged",
      "updatedAt" = now()`,

  UsageRecordArchive: (p) => `
    WITH r AS (
      SELECT a."monitoredAssetId", a."periodKey", a."tenantId", a.amount, a."creditsPriced", a."creditsCharged",
             a."creationDateTime", a."transactionId", coalesce(m."metricType", 'Sum') AS "metricType"
      FROM "${p}" a LEFT JOIN "MonitoredAsset" m ON m.id = a."monitoredAssetId"
      WHERE a.status = 'Counted' AND a."monitoredAssetId" IS NOT NULL AND a."periodKey" IS NOT NULL
    ), folded AS (
      SELECT "monitoredAssetId", "periodKey", min("tenantId"::text)::uuid AS "tenantId", min("metricType") AS "metricType",
             CASE min("metricType")
               WHEN 'Maximum' THEN max(coalesce(amount, 0))
               WHEN 'Gauge' THEN (array_agg(coalesce(amount, 0) ORDER BY "creationDateTime" DESC, "transactionId" DESC))[1]
               ELSE sum(coalesce(amount, 0))
             END AS reported,
             count(*)::int AS records,
             (array_agg("creationDateTime" ORDER BY "creationDateTime" DESC, "transactionId" DESC))[1] AS "lastAt",
             (array_agg("transactionId" ORDER BY "creationDateTime" DESC, "transactionId" DESC))[1] AS "lastId",
             sum("creditsPriced") AS priced, sum("creditsCharged") AS charged
      FROM r GROUP BY "monitoredAssetId", "periodKey"
    )
    INSERT INTO "MeterLedgerBase" AS b
      ("monitoredAssetId", "periodKey", "tenantId", "metricType", "reportedUsage", "recordCount",
       "lastRecordAt", "lastTransactionId", "creditsPriced", "creditsCharged")
    SELECT "monitoredAssetId", "periodKey", "tenantId", "metricType", reported, records, "lastAt", "lastId", priced, charged
    FROM folded
    ON CONFLICT ("monitoredAssetId", "periodKey") DO UPDATE SET
      "reportedUsage" = CASE EXCLUDED."metricType"
        WHEN 'Maximum' THEN greatest(b."reportedUsage", EXCLUDED."reportedUsage")
        WHEN 'Gauge' THEN CASE
          WHEN b."lastRecordAt" IS NULL
            OR (EXCLUDED."lastRecordAt", EXCLUDED."lastTransactionId") > (b."lastRecordAt", b."lastTransactionId")
          THEN EXCLUDED."reportedUsage" ELSE b."reportedUsage" END
        ELSE coalesce(b."reportedUsage", 0) + EXCLUDED."reportedUsage"
      END,
      "lastRecordAt" = CASE
        WHEN b."lastRecordAt" IS NULL
          OR (EXCLUDED."lastRecordAt", EXCLUDED."lastTransactionId") > (b."lastRecordAt", b."lastTransactionId")
        THEN EXCLUDED."lastRecordAt" ELSE b."lastRecordAt" END,
      "lastTransactionId" = CASE
        WHEN b."lastRecordAt" IS NULL
          OR (EXCLUDED."lastRecordAt", EXCLUDED."lastTransactionId") > (b."lastRecordAt", b."lastTransactionId")
        THEN EXCLUDED."lastTransactionId" ELSE b."lastTransactionId" END,
      "recordCount" = b."recordCount" + EXCLUDED."recordCount",
      "creditsPriced" = b."creditsPriced" + EXCLUDED."creditsPriced",
      "creditsCharged" = b."creditsCharged" + EXCLUDED."creditsCharged",
      "updatedAt" = now()`,
};

const FOLD_TRANSACTION = { maxWait: 60_000, timeout: 30 * 60_000 };

/**
 * Folds one partition of `table` (its name made by server/db/month-partitions.ts from the table's
 * name and a month, never from input). Returns whether it folded now (false: folded before).
 */
export async function foldLedgerPartition(db: Db, table: FoldedTable, partition: string): Promise<boolean> {
  // A month of a large tenant's ledger takes longer than an interactive transaction's default.
  return db.$transaction(async (tx) => {
    const claimed = await tx.$executeRawUnsafe(
      `INSERT INTO "LedgerFold" (partition) VALUES ($1) ON CONFLICT (partition) DO NOTHING`,
      partition,
    );
    if (claimed === 0) return false;
    await tx.$executeRawUnsafe(foldSql[table](partition));
    return true;
  }, FOLD_TRANSACTION);
}
