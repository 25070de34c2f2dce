-- Operations (issue 16): indexes behind the dashboard and the global search, and the refusal counters.

-- CreateIndex
CREATE INDEX "LicenseSession_tenantId_revokedAt_seatHeldUntil_idx" ON "LicenseSession"("tenantId", "revokedAt", "seatHeldUntil");

-- CreateIndex
CREATE INDEX "Device_tenantId_fingerprintHash_idx" ON "Device"("tenantId", "fingerprintHash");

-- CreateIndex
CREATE INDEX "BalanceHistoryEntry_tenantId_createdAt_idx" ON "BalanceHistoryEntry"("tenantId", "createdAt");

-- CreateTable
CREATE TABLE "RefusalCount" (
    "tenantId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "operation" TEXT NOT NULL,
    "codeName" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "RefusalCount_pkey" PRIMARY KEY ("tenantId", "day", "operation", "codeName")
);
