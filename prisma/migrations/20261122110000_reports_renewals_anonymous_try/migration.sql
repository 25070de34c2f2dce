-- AlterTable
ALTER TABLE "Entitlement" ADD COLUMN     "archivedAt" TIMESTAMPTZ(3);

-- Entitlements archived before the column existed: their last change is the best record of when.
UPDATE "Entitlement" SET "archivedAt" = "updatedAt" WHERE "status" = 'Archived';

-- CreateTable
CREATE TABLE "EntitlementRenewal" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "entitlementId" UUID NOT NULL,
    "renewedAt" TIMESTAMPTZ(3) NOT NULL,
    "previousExpirationDateTime" TIMESTAMPTZ(3) NOT NULL,
    "expirationDateTime" TIMESTAMPTZ(3) NOT NULL,
    "renewedBy" TEXT NOT NULL,

    CONSTRAINT "EntitlementRenewal_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnonymousTryClaim" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "offerId" UUID NOT NULL,
    "fingerprintHash" TEXT NOT NULL,
    "entitlementId" UUID,
    "activationCodeId" UUID,
    "claimedAt" TIMESTAMPTZ(3) NOT NULL,
    "purgedAt" TIMESTAMPTZ(3),

    CONSTRAINT "AnonymousTryClaim_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Entitlement_anonymousTryPurgeDueAt_idx" ON "Entitlement"("anonymousTryPurgeDueAt");

-- CreateIndex
CREATE INDEX "EntitlementRenewal_tenantId_entitlementId_renewedAt_idx" ON "EntitlementRenewal"("tenantId", "entitlementId", "renewedAt");

-- CreateIndex
CREATE INDEX "AnonymousTryClaim_tenantId_entitlementId_idx" ON "AnonymousTryClaim"("tenantId", "entitlementId");

-- CreateIndex
CREATE UNIQUE INDEX "AnonymousTryClaim_tenantId_offerId_fingerprintHash_key" ON "AnonymousTryClaim"("tenantId", "offerId", "fingerprintHash");

-- AddForeignKey
ALTER TABLE "EntitlementRenewal" ADD CONSTRAINT "EntitlementRenewal_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnonymousTryClaim" ADD CONSTRAINT "AnonymousTryClaim_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
