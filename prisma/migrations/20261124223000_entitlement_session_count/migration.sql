-- Issue 12: an activation counted every seat its license holds (an index scan over all of them,
-- under the license's lock), so a license with thousands of held seats paid milliseconds per
-- activation. Triggers keep, per license, how many sessions are not revoked: an upper bound of the
-- seats held. Below the seat count it proves a seat is free without counting; at or above it, the
-- activation counts as before (up to the seat count). docs/decisions.md "Seat counting".
CREATE TABLE "EntitlementSessionCount" (
    "entitlementId" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "unrevoked" INTEGER NOT NULL,

    CONSTRAINT "EntitlementSessionCount_pkey" PRIMARY KEY ("entitlementId")
);

ALTER TABLE "EntitlementSessionCount" ADD CONSTRAINT "EntitlementSessionCount_entitlementId_fkey" FOREIGN KEY ("entitlementId") REFERENCES "Entitlement"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "EntitlementSessionCount" ("entitlementId", "tenantId", "unrevoked")
SELECT "entitlementId", "tenantId", count(*)::int FROM "LicenseSession" WHERE "revokedAt" IS NULL
GROUP BY "entitlementId", "tenantId";

-- After each inserted, revoked (or un-revoked), moved or deleted session: the counts of the
-- licenses it left and joined. Row triggers queue until their statement ends, so a statement that
-- waits for a session's lock holds no count's lock meanwhile.
CREATE FUNCTION licensing_session_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."revokedAt" IS NULL THEN
    UPDATE "EntitlementSessionCount" SET "unrevoked" = "unrevoked" - 1 WHERE "entitlementId" = OLD."entitlementId";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."revokedAt" IS NULL THEN
    INSERT INTO "EntitlementSessionCount" ("entitlementId", "tenantId", "unrevoked")
    VALUES (NEW."entitlementId", NEW."tenantId", 1)
    ON CONFLICT ("entitlementId") DO UPDATE SET "unrevoked" = "EntitlementSessionCount"."unrevoked" + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "LicenseSession_count_insert" AFTER INSERT ON "LicenseSession"
  FOR EACH ROW WHEN (NEW."revokedAt" IS NULL) EXECUTE FUNCTION licensing_session_count();
-- Renew and check-in set neither column: the trigger is not even considered for them.
CREATE TRIGGER "LicenseSession_count_update" AFTER UPDATE OF "revokedAt", "entitlementId" ON "LicenseSession"
  FOR EACH ROW WHEN (OLD."revokedAt" IS DISTINCT FROM NEW."revokedAt" OR OLD."entitlementId" IS DISTINCT FROM NEW."entitlementId")
  EXECUTE FUNCTION licensing_session_count();
CREATE TRIGGER "LicenseSession_count_delete" AFTER DELETE ON "LicenseSession"
  FOR EACH ROW WHEN (OLD."revokedAt" IS NULL) EXECUTE FUNCTION licensing_session_count();
