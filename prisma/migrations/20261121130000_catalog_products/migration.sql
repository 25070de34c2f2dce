-- CreateTable
CREATE TABLE "Product" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'Draft',
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "productCode" TEXT NOT NULL,
    "productVersion" TEXT NOT NULL DEFAULT '',
    "activeCodeKey" TEXT,
    "expirationDate" TIMESTAMPTZ(3),
    "externalId" TEXT,
    "propertyValues" JSONB NOT NULL,
    "isLocked" BOOLEAN NOT NULL DEFAULT false,
    "applicationScopes" TEXT[],
    "parentProductId" UUID,
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "revisionNumber" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "Product_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProductFeature" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "productId" UUID NOT NULL,
    "featureCatalogId" UUID NOT NULL,
    "moduleName" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "value" TEXT,
    "isEnabled" BOOLEAN NOT NULL DEFAULT true,
    "includeInLicenseToken" BOOLEAN NOT NULL DEFAULT true,
    "isAvailableDuringTrialPeriod" BOOLEAN NOT NULL DEFAULT true,
    "isAvailableDuringGracePeriod" BOOLEAN NOT NULL DEFAULT true,
    "isPaidFeature" BOOLEAN NOT NULL DEFAULT false,
    "canModifyValueOnEntitlement" BOOLEAN NOT NULL DEFAULT false,
    "visibility" TEXT NOT NULL DEFAULT 'Public',
    "sortOrder" INTEGER NOT NULL,
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "revisionNumber" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "ProductFeature_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FeatureCatalogEntry" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "productId" UUID,
    "featureCode" TEXT NOT NULL,
    "activeCodeKey" TEXT,
    "name" TEXT NOT NULL,
    "units" TEXT,
    "metricName" TEXT,
    "featureType" TEXT NOT NULL,
    "lifecycleStatus" TEXT NOT NULL DEFAULT 'Draft',
    "visibility" TEXT NOT NULL DEFAULT 'Public',
    "meterAggregationType" TEXT,
    "valueScore" DOUBLE PRECISION,
    "enumOptions" JSONB,
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "revisionNumber" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "FeatureCatalogEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MonitoredAsset" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "ownerKind" TEXT NOT NULL,
    "ownerId" UUID NOT NULL,
    "productId" UUID,
    "entitlementId" UUID,
    "offerId" UUID,
    "ownerStatus" TEXT,
    "sourceAssetId" UUID,
    "metricName" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "unit" TEXT NOT NULL DEFAULT '',
    "category" TEXT NOT NULL DEFAULT '',
    "numberFormat" TEXT NOT NULL DEFAULT '',
    "metricType" TEXT NOT NULL DEFAULT 'CumulativeCounter',
    "allowedBackDatingTolerance" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "revisionNumber" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "MonitoredAsset_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MeteredUsage" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "monitoredAssetId" UUID NOT NULL,
    "suspendedUntilAt" TIMESTAMPTZ(3),
    "lastReportedOverageSeverityStatus" TEXT NOT NULL DEFAULT 'None',
    "usageTiers" JSONB NOT NULL,
    "consumptionPeriod" TEXT NOT NULL DEFAULT '',
    "periodAnchor" TEXT NOT NULL DEFAULT 'Calendar',
    "accumulationMethod" TEXT NOT NULL DEFAULT 'Sliced',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "MeteredUsage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BalanceUsage" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "monitoredAssetId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "creditsUsed" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "totalCredits" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "cumulativeCreditsUsed" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "unfundedCredits" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "lastUnfundedAt" TIMESTAMPTZ(3),
    "unit" TEXT NOT NULL DEFAULT '',
    "numberFormat" TEXT NOT NULL DEFAULT '',
    "lastDeposit" TIMESTAMPTZ(3),
    "usageQuota" JSONB NOT NULL,
    "suspendedUntilAt" TIMESTAMPTZ(3),
    "overageSeverityStatus" TEXT NOT NULL DEFAULT 'None',
    "initialCreditAmount" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "isUnlimitedCredits" BOOLEAN NOT NULL DEFAULT false,
    "autoBalanceCronSchedule" TEXT,
    "lastAutoBalanceDate" TIMESTAMPTZ(3),
    "shouldAutoBalanceTransferCurrentCredits" BOOLEAN NOT NULL DEFAULT false,
    "maxAutoBalanceCreditTransferAmount" DECIMAL(24,6),
    "autoBalanceCreditAmount" DECIMAL(24,6),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "BalanceUsage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Product_tenantId_isDeleted_name_idx" ON "Product"("tenantId", "isDeleted", "name");

-- CreateIndex
CREATE INDEX "Product_tenantId_productCode_idx" ON "Product"("tenantId", "productCode");

-- CreateIndex
CREATE INDEX "Product_parentProductId_idx" ON "Product"("parentProductId");

-- CreateIndex
CREATE UNIQUE INDEX "Product_tenantId_activeCodeKey_key" ON "Product"("tenantId", "activeCodeKey");

-- CreateIndex
CREATE INDEX "ProductFeature_tenantId_productId_isDeleted_sortOrder_idx" ON "ProductFeature"("tenantId", "productId", "isDeleted", "sortOrder");

-- CreateIndex
CREATE INDEX "ProductFeature_tenantId_featureCatalogId_idx" ON "ProductFeature"("tenantId", "featureCatalogId");

-- CreateIndex
CREATE INDEX "ProductFeature_productId_idx" ON "ProductFeature"("productId");

-- CreateIndex
CREATE INDEX "ProductFeature_featureCatalogId_idx" ON "ProductFeature"("featureCatalogId");

-- CreateIndex
CREATE INDEX "FeatureCatalogEntry_tenantId_isDeleted_featureCode_idx" ON "FeatureCatalogEntry"("tenantId", "isDeleted", "featureCode");

-- CreateIndex
CREATE INDEX "FeatureCatalogEntry_tenantId_metricName_idx" ON "FeatureCatalogEntry"("tenantId", "metricName");

-- CreateIndex
CREATE INDEX "FeatureCatalogEntry_productId_idx" ON "FeatureCatalogEntry"("productId");

-- CreateIndex
CREATE UNIQUE INDEX "FeatureCatalogEntry_tenantId_activeCodeKey_key" ON "FeatureCatalogEntry"("tenantId", "activeCodeKey");

-- CreateIndex
CREATE INDEX "MonitoredAsset_tenantId_productId_idx" ON "MonitoredAsset"("tenantId", "productId");

-- CreateIndex
CREATE INDEX "MonitoredAsset_tenantId_entitlementId_idx" ON "MonitoredAsset"("tenantId", "entitlementId");

-- CreateIndex
CREATE INDEX "MonitoredAsset_tenantId_offerId_idx" ON "MonitoredAsset"("tenantId", "offerId");

-- CreateIndex
CREATE INDEX "MonitoredAsset_tenantId_metricName_idx" ON "MonitoredAsset"("tenantId", "metricName");

-- CreateIndex
CREATE INDEX "MonitoredAsset_productId_idx" ON "MonitoredAsset"("productId");

-- CreateIndex
CREATE INDEX "MonitoredAsset_sourceAssetId_idx" ON "MonitoredAsset"("sourceAssetId");

-- CreateIndex
CREATE UNIQUE INDEX "MonitoredAsset_tenantId_ownerId_metricName_key" ON "MonitoredAsset"("tenantId", "ownerId", "metricName");

-- CreateIndex
CREATE INDEX "MeteredUsage_monitoredAssetId_idx" ON "MeteredUsage"("monitoredAssetId");

-- CreateIndex
CREATE UNIQUE INDEX "MeteredUsage_tenantId_monitoredAssetId_key" ON "MeteredUsage"("tenantId", "monitoredAssetId");

-- CreateIndex
CREATE INDEX "BalanceUsage_monitoredAssetId_idx" ON "BalanceUsage"("monitoredAssetId");

-- CreateIndex
CREATE UNIQUE INDEX "BalanceUsage_tenantId_monitoredAssetId_key" ON "BalanceUsage"("tenantId", "monitoredAssetId");

-- AddForeignKey
ALTER TABLE "Product" ADD CONSTRAINT "Product_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Product" ADD CONSTRAINT "Product_parentProductId_fkey" FOREIGN KEY ("parentProductId") REFERENCES "Product"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProductFeature" ADD CONSTRAINT "ProductFeature_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProductFeature" ADD CONSTRAINT "ProductFeature_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProductFeature" ADD CONSTRAINT "ProductFeature_featureCatalogId_fkey" FOREIGN KEY ("featureCatalogId") REFERENCES "FeatureCatalogEntry"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FeatureCatalogEntry" ADD CONSTRAINT "FeatureCatalogEntry_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FeatureCatalogEntry" ADD CONSTRAINT "FeatureCatalogEntry_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MonitoredAsset" ADD CONSTRAINT "MonitoredAsset_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MonitoredAsset" ADD CONSTRAINT "MonitoredAsset_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MonitoredAsset" ADD CONSTRAINT "MonitoredAsset_sourceAssetId_fkey" FOREIGN KEY ("sourceAssetId") REFERENCES "MonitoredAsset"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MeteredUsage" ADD CONSTRAINT "MeteredUsage_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MeteredUsage" ADD CONSTRAINT "MeteredUsage_monitoredAssetId_fkey" FOREIGN KEY ("monitoredAssetId") REFERENCES "MonitoredAsset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BalanceUsage" ADD CONSTRAINT "BalanceUsage_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BalanceUsage" ADD CONSTRAINT "BalanceUsage_monitoredAssetId_fkey" FOREIGN KEY ("monitoredAssetId") REFERENCES "MonitoredAsset"("id") ON DELETE CASCADE ON UPDATE CASCADE;
