-- Issue 27 item 4: the ledgers that grow forever (docs/operations.md "Data at scale: retention,
-- partitions and autovacuum"; docs/decisions.md "Ledger partitions").
--
-- ConsumeEntry and BalanceHistoryEntry become tables partitioned by month of "createdAt". Expand
-- only (docs/operations.md "Zero-downtime migrations"): no row is copied or rewritten. Each existing
-- table is renamed `<name>_legacy` and attached, as it is, as the partition of everything before
-- the first day of next month; the partitioned table takes the old name, columns, defaults and
-- index names, so the previous release's statements (which name the table and never its primary
-- key) keep working. The old primary key gives way to the new one, which contains it (so the rows
-- it held unique stay unique). The cost, under the tables' locks: one scan of each old table to
-- check its range and the build of its new primary-key index (measured in docs/performance.md
-- "Ledger partitions").
--
-- UsageRecord stays one table (its primary key is the upload's idempotency rule): records that can
-- no longer count move to UsageRecordArchive, partitioned by month of "receivedAt"; a BRIN index on
-- "receivedAt" (rows are appended in that order) finds them without a per-record index write.

-- ConsumeEntry --------------------------------------------------------------------------------
ALTER TABLE "ConsumeEntry" RENAME TO "ConsumeEntry_legacy";
ALTER TABLE "ConsumeEntry_legacy" DROP CONSTRAINT "ConsumeEntry_pkey";
ALTER INDEX "ConsumeEntry_tenantId_monitoredAssetId_createdAt_idx" RENAME TO "ConsumeEntry_legacy_tenantId_monitoredAssetId_createdAt_idx";
CREATE TABLE "ConsumeEntry" (LIKE "ConsumeEntry_legacy" INCLUDING DEFAULTS) PARTITION BY RANGE ("createdAt");
ALTER TABLE "ConsumeEntry" ADD CONSTRAINT "ConsumeEntry_pkey" PRIMARY KEY ("tenantId", "id", "createdAt");
CREATE INDEX "ConsumeEntry_tenantId_monitoredAssetId_createdAt_idx" ON "ConsumeEntry"("tenantId", "monitoredAssetId", "createdAt");

-- BalanceHistoryEntry -------------------------------------------------------------------------
ALTER TABLE "BalanceHistoryEntry" RENAME TO "BalanceHistoryEntry_legacy";
ALTER TABLE "BalanceHistoryEntry_legacy" DROP CONSTRAINT "BalanceHistoryEntry_pkey";
ALTER INDEX "BalanceHistoryEntry_tenantId_balanceUsageId_seq_idx" RENAME TO "BalanceHistoryEntry_legacy_tenantId_balanceUsageId_seq_idx";
ALTER INDEX "BalanceHistoryEntry_tenantId_entitlementId_createdAt_idx" RENAME TO "BalanceHistoryEntry_legacy_tenantId_entitlementId_createdAt_idx";
ALTER INDEX "BalanceHistoryEntry_tenantId_createdAt_idx" RENAME TO "BalanceHistoryEntry_legacy_tenantId_createdAt_idx";
CREATE TABLE "BalanceHistoryEntry" (LIKE "BalanceHistoryEntry_legacy" INCLUDING DEFAULTS) PARTITION BY RANGE ("createdAt");
-- The ledger's order (seq) keeps its sequence; owned by the new table so that dropping the legacy
-- partition one day does not drop it.
ALTER SEQUENCE "BalanceHistoryEntry_seq_seq" OWNED BY "BalanceHistoryEntry"."seq";
ALTER TABLE "BalanceHistoryEntry" ADD CONSTRAINT "BalanceHistoryEntry_pkey" PRIMARY KEY ("id", "createdAt");
CREATE INDEX "BalanceHistoryEntry_tenantId_balanceUsageId_seq_idx" ON "BalanceHistoryEntry"("tenantId", "balanceUsageId", "seq");
CREATE INDEX "BalanceHistoryEntry_tenantId_entitlementId_createdAt_idx" ON "BalanceHistoryEntry"("tenantId", "entitlementId", "createdAt");
CREATE INDEX "BalanceHistoryEntry_tenantId_createdAt_idx" ON "BalanceHistoryEntry"("tenantId", "createdAt");
ALTER TABLE "BalanceHistoryEntry" ADD CONSTRAINT "BalanceHistoryEntry_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- UsageRecordArchive --------------------------------------------------------------------------
CREATE TABLE "UsageRecordArchive" (LIKE "UsageRecord" INCLUDING DEFAULTS) PARTITION BY RANGE ("receivedAt");
ALTER TABLE "UsageRecordArchive" ADD CONSTRAINT "UsageRecordArchive_pkey" PRIMARY KEY ("tenantId", "entitlementId", "transactionId", "receivedAt");
CREATE INDEX "UsageRecordArchive_tenantId_creationDateTime_idx" ON "UsageRecordArchive"("tenantId", "creationDateTime");
CREATE INDEX "UsageRecord_receivedAt_idx" ON "UsageRecord" USING BRIN ("receivedAt");

-- The legacy partitions and the months until the worker's first run ---------------------------
-- Month bounds are computed in UTC whatever the session's TimeZone.
DO $$
DECLARE
  this_month timestamp := date_trunc('month', now() AT TIME ZONE 'UTC');
  cutoff timestamptz := (this_month + interval '1 month') AT TIME ZONE 'UTC';
  t text;
  m timestamp;
BEGIN
  EXECUTE format('ALTER TABLE "ConsumeEntry" ATTACH PARTITION "ConsumeEntry_legacy" FOR VALUES FROM (MINVALUE) TO (%L)', cutoff);
  EXECUTE format('ALTER TABLE "BalanceHistoryEntry" ATTACH PARTITION "BalanceHistoryEntry_legacy" FOR VALUES FROM (MINVALUE) TO (%L)', cutoff);
  FOREACH t IN ARRAY ARRAY['ConsumeEntry', 'BalanceHistoryEntry'] LOOP
    FOR i IN 1..3 LOOP
      m := this_month + make_interval(months => i);
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
        t || '_p' || to_char(m, 'YYYY_MM'), t, m AT TIME ZONE 'UTC', (m + interval '1 month') AT TIME ZONE 'UTC');
    END LOOP;
  END LOOP;
END $$;
