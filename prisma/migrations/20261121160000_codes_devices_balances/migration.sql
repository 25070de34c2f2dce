-- CreateTable
CREATE TABLE "ActivationCode" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "entitlementId" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "normalizedCode" TEXT NOT NULL,
    "lookupKey" TEXT NOT NULL,
    "normalizeStripSeparators" BOOLEAN NOT NULL,
    "normalizeCaseInsensitive" BOOLEAN NOT NULL,
    "normalizeMapConfusables" BOOLEAN NOT NULL,
    "sequenceNumber" INTEGER,
    "deviceLimit" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'Active',
    "revokedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ActivationCode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KeyIssuanceSequence" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "scopeKey" TEXT NOT NULL,
    "current" INTEGER NOT NULL,

    CONSTRAINT "KeyIssuanceSequence_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Device" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "entitlementId" UUID NOT NULL,
    "fingerprintHash" TEXT NOT NULL,
    "deviceName" TEXT,
    "isPreRegistered" BOOLEAN NOT NULL DEFAULT false,
    "isBlocked" BOOLEAN NOT NULL DEFAULT false,
    "blockedAt" TIMESTAMPTZ(3),
    "unblockedAt" TIMESTAMPTZ(3),
    "lastSeenAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Device_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LicenseSession" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "entitlementId" UUID NOT NULL,
    "deviceId" UUID NOT NULL,
    "activationCodeId" UUID,
    "processId" TEXT,
    "deviceName" TEXT,
    "productIds" UUID[],
    "activatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseExpiresAt" TIMESTAMPTZ(3) NOT NULL,
    "validUntil" TIMESTAMPTZ(3),
    "lastContactAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),
    "revocationReason" TEXT NOT NULL DEFAULT 'None',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "LicenseSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BalanceHistoryEntry" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "balanceUsageId" UUID NOT NULL,
    "entitlementId" UUID NOT NULL,
    "metricName" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "amount" DECIMAL(24,6) NOT NULL,
    "totalCreditsAfter" DECIMAL(24,6) NOT NULL,
    "creditsUsedAfter" DECIMAL(24,6) NOT NULL,
    "actorKind" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BalanceHistoryEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ActivationCode_lookupKey_key" ON "ActivationCode"("lookupKey");

-- CreateIndex
CREATE INDEX "ActivationCode_tenantId_entitlementId_createdAt_idx" ON "ActivationCode"("tenantId", "entitlementId", "createdAt");

-- CreateIndex
CREATE INDEX "ActivationCode_tenantId_createdAt_idx" ON "ActivationCode"("tenantId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "KeyIssuanceSequence_tenantId_scopeKey_key" ON "KeyIssuanceSequence"("tenantId", "scopeKey");

-- CreateIndex
CREATE INDEX "Device_tenantId_entitlementId_createdAt_idx" ON "Device"("tenantId", "entitlementId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Device_tenantId_entitlementId_fingerprintHash_key" ON "Device"("tenantId", "entitlementId", "fingerprintHash");

-- CreateIndex
CREATE INDEX "LicenseSession_tenantId_entitlementId_revokedAt_idx" ON "LicenseSession"("tenantId", "entitlementId", "revokedAt");

-- CreateIndex
CREATE INDEX "LicenseSession_tenantId_deviceId_idx" ON "LicenseSession"("tenantId", "deviceId");

-- CreateIndex
CREATE INDEX "LicenseSession_tenantId_activationCodeId_idx" ON "LicenseSession"("tenantId", "activationCodeId");

-- CreateIndex
CREATE INDEX "LicenseSession_deviceId_idx" ON "LicenseSession"("deviceId");

-- CreateIndex
CREATE INDEX "LicenseSession_activationCodeId_idx" ON "LicenseSession"("activationCodeId");

-- CreateIndex
CREATE INDEX "BalanceHistoryEntry_tenantId_balanceUsageId_createdAt_idx" ON "BalanceHistoryEntry"("tenantId", "balanceUsageId", "createdAt");

-- CreateIndex
CREATE INDEX "BalanceHistoryEntry_tenantId_entitlementId_createdAt_idx" ON "BalanceHistoryEntry"("tenantId", "entitlementId", "createdAt");

-- AddForeignKey
ALTER TABLE "ActivationCode" ADD CONSTRAINT "ActivationCode_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KeyIssuanceSequence" ADD CONSTRAINT "KeyIssuanceSequence_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Device" ADD CONSTRAINT "Device_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LicenseSession" ADD CONSTRAINT "LicenseSession_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LicenseSession" ADD CONSTRAINT "LicenseSession_deviceId_fkey" FOREIGN KEY ("deviceId") REFERENCES "Device"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LicenseSession" ADD CONSTRAINT "LicenseSession_activationCodeId_fkey" FOREIGN KEY ("activationCodeId") REFERENCES "ActivationCode"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BalanceHistoryEntry" ADD CONSTRAINT "BalanceHistoryEntry_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
