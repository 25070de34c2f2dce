-- AlterTable
ALTER TABLE "Device" ADD COLUMN     "components" JSONB;

-- AlterTable
ALTER TABLE "LicenseSession" ADD COLUMN     "activatedByUserId" UUID,
ADD COLUMN     "activationKind" TEXT NOT NULL DEFAULT 'Online',
ADD COLUMN     "graceExpiresAt" TIMESTAMPTZ(3),
ADD COLUMN     "idempotencyKey" TEXT,
ADD COLUMN     "idempotencyRequestHash" TEXT,
ADD COLUMN     "seatHeldUntil" TIMESTAMPTZ(3);

-- Sessions written before leases were enforced hold their seat until their lease ends.
UPDATE "LicenseSession" SET "graceExpiresAt" = "leaseExpiresAt", "seatHeldUntil" = "leaseExpiresAt";

-- AlterTable
ALTER TABLE "LicenseSession" ALTER COLUMN "graceExpiresAt" SET NOT NULL,
ALTER COLUMN "seatHeldUntil" SET NOT NULL;

-- CreateTable
CREATE TABLE "OfflineActivation" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "entitlementId" UUID NOT NULL,
    "sessionId" UUID NOT NULL,
    "requestKey" TEXT NOT NULL,
    "signedPayload" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OfflineActivation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "LicenseSession_tenantId_entitlementId_revokedAt_seatHeldUnt_idx" ON "LicenseSession"("tenantId", "entitlementId", "revokedAt", "seatHeldUntil");

-- CreateIndex
CREATE INDEX "LicenseSession_revokedAt_graceExpiresAt_idx" ON "LicenseSession"("revokedAt", "graceExpiresAt");

-- CreateIndex
CREATE INDEX "LicenseSession_tenantId_activatedByUserId_idx" ON "LicenseSession"("tenantId", "activatedByUserId");

-- CreateIndex
CREATE INDEX "LicenseSession_tenantId_activatedAt_idx" ON "LicenseSession"("tenantId", "activatedAt");

-- CreateIndex
CREATE UNIQUE INDEX "LicenseSession_tenantId_idempotencyKey_key" ON "LicenseSession"("tenantId", "idempotencyKey");

-- CreateIndex
CREATE INDEX "OfflineActivation_tenantId_sessionId_idx" ON "OfflineActivation"("tenantId", "sessionId");

-- CreateIndex
CREATE UNIQUE INDEX "OfflineActivation_tenantId_requestKey_key" ON "OfflineActivation"("tenantId", "requestKey");

-- AddForeignKey
ALTER TABLE "OfflineActivation" ADD CONSTRAINT "OfflineActivation_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
