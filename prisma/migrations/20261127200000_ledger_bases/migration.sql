-- What the ledger months dropped past retention held, folded into one row per balance and per
-- meter period before the drop, so the counters still rebuild from the ledger alone
-- (server/domain/metering/ledger/rebuild-counters.ts; docs/operations.md "Data at scale: retention,
-- partitions and autovacuum"). Expand only: new tables, nothing changed.
CREATE TABLE "BalanceLedgerBase" (
    "balanceUsageId" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "totalCredits" DECIMAL(24,6) NOT NULL,
    "creditsUsed" DECIMAL(24,6) NOT NULL,
    "cumulativeCreditsUsed" DECIMAL(24,6) NOT NULL,
    "unfundedCredits" DECIMAL(24,6) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BalanceLedgerBase_pkey" PRIMARY KEY ("balanceUsageId")
);

CREATE TABLE "MeterLedgerBase" (
    "monitoredAssetId" UUID NOT NULL,
    "periodKey" TEXT NOT NULL,
    "tenantId" UUID NOT NULL,
    "metricType" TEXT NOT NULL,
    "consumedUsage" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "consumeCount" INTEGER NOT NULL DEFAULT 0,
    "reportedUsage" DECIMAL(24,6),
    "recordCount" INTEGER NOT NULL DEFAULT 0,
    "lastRecordAt" TIMESTAMPTZ(3),
    "lastTransactionId" BIGINT,
    "creditsPriced" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "creditsCharged" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MeterLedgerBase_pkey" PRIMARY KEY ("monitoredAssetId","periodKey")
);

CREATE TABLE "LedgerFold" (
    "partition" TEXT NOT NULL,
    "foldedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LedgerFold_pkey" PRIMARY KEY ("partition")
);
