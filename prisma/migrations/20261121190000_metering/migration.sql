-- AlterTable
ALTER TABLE "BalanceHistoryEntry" ADD COLUMN     "seq" BIGSERIAL NOT NULL,
ADD COLUMN     "sourceRef" TEXT,
ADD COLUMN     "unfundedAmount" DECIMAL(24,6) NOT NULL DEFAULT 0;

-- DropIndex
DROP INDEX "BalanceHistoryEntry_tenantId_balanceUsageId_createdAt_idx";

-- CreateTable
CREATE TABLE "MeterPeriod" (
    "tenantId" UUID NOT NULL,
    "monitoredAssetId" UUID NOT NULL,
    "periodKey" TEXT NOT NULL,
    "entitlementId" UUID NOT NULL,
    "metricName" TEXT NOT NULL,
    "metricType" TEXT NOT NULL DEFAULT 'CumulativeCounter',
    "periodStart" TIMESTAMPTZ(3),
    "periodEnd" TIMESTAMPTZ(3),
    "usage" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "usageBefore" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "consumedUsage" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "reportedUsage" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "creditsPriced" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "creditsCharged" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "consumeCount" INTEGER NOT NULL DEFAULT 0,
    "recordCount" INTEGER NOT NULL DEFAULT 0,
    "lastRecordAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MeterPeriod_pkey" PRIMARY KEY ("tenantId","monitoredAssetId","periodKey")
);

-- CreateTable
CREATE TABLE "ConsumeEntry" (
    "tenantId" UUID NOT NULL,
    "id" UUID NOT NULL,
    "entitlementId" UUID NOT NULL,
    "sessionId" UUID NOT NULL,
    "monitoredAssetId" UUID NOT NULL,
    "metricName" TEXT NOT NULL,
    "amount" DECIMAL(24,6) NOT NULL,
    "periodKey" TEXT NOT NULL,
    "usageAfter" DECIMAL(24,6) NOT NULL,
    "tierName" TEXT,
    "severity" TEXT NOT NULL,
    "overageUnits" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "creditsPriced" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "creditsCharged" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "fundingMetricName" TEXT,
    "balanceAfter" DECIMAL(24,6),
    "idempotencyKey" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConsumeEntry_pkey" PRIMARY KEY ("tenantId","id")
);

-- CreateTable
CREATE TABLE "UsageRecord" (
    "tenantId" UUID NOT NULL,
    "entitlementId" UUID NOT NULL,
    "transactionId" BIGINT NOT NULL,
    "sessionId" UUID,
    "uploadSessionId" UUID,
    "apiVersion" INTEGER NOT NULL,
    "creationDateTime" TIMESTAMPTZ(3) NOT NULL,
    "eventName" TEXT NOT NULL,
    "eventData" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "note" TEXT,
    "monitoredAssetId" UUID,
    "metricName" TEXT,
    "amount" DECIMAL(24,6),
    "periodKey" TEXT,
    "creditsPriced" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "creditsCharged" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "unfundedCredits" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "UsageRecord_pkey" PRIMARY KEY ("tenantId","entitlementId","transactionId")
);

-- CreateTable
CREATE TABLE "ConsumeIdempotencyKey" (
    "tenantId" UUID NOT NULL,
    "entitlementId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "metricName" TEXT NOT NULL,
    "amount" DECIMAL(24,6) NOT NULL,
    "consumeEntryId" UUID NOT NULL,
    "decision" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ConsumeIdempotencyKey_pkey" PRIMARY KEY ("tenantId","entitlementId","key")
);

-- CreateTable
CREATE TABLE "AutoBalanceRun" (
    "tenantId" UUID NOT NULL,
    "balanceUsageId" UUID NOT NULL,
    "scheduledAt" TIMESTAMPTZ(3) NOT NULL,
    "entitlementId" UUID NOT NULL,
    "metricName" TEXT NOT NULL,
    "remainingBefore" DECIMAL(24,6) NOT NULL,
    "creditsTransferred" DECIMAL(24,6) NOT NULL,
    "creditsAdded" DECIMAL(24,6) NOT NULL,
    "remainingAfter" DECIMAL(24,6) NOT NULL,
    "ranAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "AutoBalanceRun_pkey" PRIMARY KEY ("tenantId","balanceUsageId","scheduledAt")
);

-- CreateTable
CREATE TABLE "FeatureRating" (
    "tenantId" UUID NOT NULL,
    "campaignId" UUID NOT NULL,
    "featureCatalogId" UUID NOT NULL,
    "entitlementId" UUID NOT NULL,
    "sessionId" UUID NOT NULL,
    "rating" INTEGER,
    "comment" TEXT,
    "answeredAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "FeatureRating_pkey" PRIMARY KEY ("tenantId","campaignId","featureCatalogId","entitlementId")
);

-- CreateIndex
CREATE INDEX "BalanceHistoryEntry_tenantId_balanceUsageId_seq_idx" ON "BalanceHistoryEntry"("tenantId", "balanceUsageId", "seq");

-- CreateIndex
CREATE INDEX "MeterPeriod_tenantId_entitlementId_metricName_periodStart_idx" ON "MeterPeriod"("tenantId", "entitlementId", "metricName", "periodStart");

-- CreateIndex
CREATE INDEX "ConsumeEntry_tenantId_monitoredAssetId_createdAt_idx" ON "ConsumeEntry"("tenantId", "monitoredAssetId", "createdAt");

-- CreateIndex
CREATE INDEX "ConsumeIdempotencyKey_tenantId_createdAt_idx" ON "ConsumeIdempotencyKey"("tenantId", "createdAt");

-- CreateIndex
CREATE INDEX "FeatureRating_tenantId_entitlementId_idx" ON "FeatureRating"("tenantId", "entitlementId");

-- AddForeignKey
ALTER TABLE "MeterPeriod" ADD CONSTRAINT "MeterPeriod_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AutoBalanceRun" ADD CONSTRAINT "AutoBalanceRun_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FeatureRating" ADD CONSTRAINT "FeatureRating_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
