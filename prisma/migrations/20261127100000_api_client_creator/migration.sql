-- Issue 21 item 3: an API client records the staff user who registered it, so disabling or
-- demoting that user revokes it (docs/security.md "Round 3").
ALTER TABLE "OAuthClient" ADD COLUMN "createdByUserId" UUID;

CREATE INDEX "OAuthClient_tenantId_createdByUserId_idx" ON "OAuthClient"("tenantId", "createdByUserId");

-- Clients registered before: their creator is the staff user the audit trail names, if any.
UPDATE "OAuthClient" c
SET "createdByUserId" = a."actorId"::uuid
FROM "AuditEvent" a
WHERE a."tenantId" = c."tenantId"
  AND a."entityKind" = 'client'
  AND a."action" = 'client.created'
  AND a."actorKind" = 'user'
  AND a."entityId" = c."id"::text
  AND a."actorId" ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

-- A client whose creator is already disabled stops now, as it would have on the disable.
UPDATE "OAuthClient" c
SET "revokedAt" = now()
FROM "User" u
WHERE u."id" = c."createdByUserId"
  AND u."disabledAt" IS NOT NULL
  AND c."revokedAt" IS NULL;
