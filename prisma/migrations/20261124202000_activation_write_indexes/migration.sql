-- Issue 12, activation spread over licenses: every new session wrote eleven index entries, and the
-- seat count of ACTIVATION_FACTS could be planned on the tenant-wide live-seat index (scanning every
-- live seat of the tenant) while the table's statistics were young. docs/decisions.md
-- "LicenseSession indexes".

-- A prefix of LicenseSession_tenantId_entitlementId_revokedAt_seatHeldUnt_idx: that index serves it.
DROP INDEX "LicenseSession_tenantId_entitlementId_revokedAt_idx";

-- The dashboard's live seats now count per license on the index above (server/domain/operations/dashboard.ts).
DROP INDEX "LicenseSession_tenantId_revokedAt_seatHeldUntil_idx";

-- Sessions of a device and of a code are found by LicenseSession_deviceId_idx and
-- LicenseSession_activationCodeId_idx (which the foreign keys' cascades need anyway); the tenant
-- filter is checked on those few rows.
DROP INDEX "LicenseSession_tenantId_deviceId_idx";
DROP INDEX "LicenseSession_tenantId_activationCodeId_idx";

-- Only sessions of a signed-in user (useInteractiveUser) and those under an Idempotency-Key are
-- looked up by these columns: rows without them need no entry. Same names and columns, so the
-- Prisma schema still describes them (a partial index's predicate is SQL only).
DROP INDEX "LicenseSession_tenantId_activatedByUserId_idx";
CREATE INDEX "LicenseSession_tenantId_activatedByUserId_idx" ON "LicenseSession"("tenantId", "activatedByUserId")
  WHERE "activatedByUserId" IS NOT NULL;
DROP INDEX "LicenseSession_tenantId_idempotencyKey_key";
CREATE UNIQUE INDEX "LicenseSession_tenantId_idempotencyKey_key" ON "LicenseSession"("tenantId", "idempotencyKey")
  WHERE "idempotencyKey" IS NOT NULL;
