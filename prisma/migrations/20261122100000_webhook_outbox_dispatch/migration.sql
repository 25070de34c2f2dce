-- AlterTable
ALTER TABLE "OAuthClient" ADD COLUMN     "callbackScopeAllowance" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "WebhookSubscription" ADD COLUMN     "stateReason" TEXT;

-- DropIndex
DROP INDEX "WebhookDelivery_status_nextAttemptAt_idx";

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_tenantId_nextAttemptAt_idx" ON "WebhookDelivery"("status", "tenantId", "nextAttemptAt");

-- Pending deliveries are found by their time (the delivery pump claims `nextAttemptAt <= now`):
-- rows written before the pump with no time are due at once.
UPDATE "WebhookDelivery" SET "nextAttemptAt" = "updatedAt" WHERE status = 'pending' AND "nextAttemptAt" IS NULL;

-- DESIGN.md section 7: a dispatcher wakes on a short poll or on one coalesced notify. A dispatcher
-- that goes to sleep holds the session advisory lock 7_170_001 exclusively; an envelope insert
-- fails to take it shared only then, and notifies once per statement (PostgreSQL folds repeated
-- notifications of one transaction). A busy dispatcher holds nothing, so under load no hot
-- transaction notifies (a notify at every commit would serialise commits).
CREATE FUNCTION "webhook_outbox_wake"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock_shared(7170001) THEN
    PERFORM pg_notify('webhook_outbox', '');
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "WebhookEnvelope_wake_dispatcher" AFTER INSERT ON "WebhookEnvelope"
  FOR EACH STATEMENT EXECUTE FUNCTION "webhook_outbox_wake"();

-- The delivery pump's claim (server/domain/webhooks/delivery/claim-deliveries.ts), one round trip:
-- the advisory lock serialises claims across workers, and a VOLATILE function takes a fresh
-- snapshot for each statement, so the claim counts every attempt claimed before the lock was granted.
-- Candidates a concurrent change holds (a delete, a requeue) are skipped, not waited for.
-- PL/pgSQL keeps the statement's plan for the session. $1 now, $2 cap per tenant, $3 cap per
-- subscription, $4 how many, $5 the lease's end.
CREATE FUNCTION "webhook_claim_due"(timestamptz, integer, integer, integer, timestamptz)
RETURNS TABLE (
  id text, "tenantId" text, "envelopeId" text, "eventType" text, "scheduleOffset" integer, "attemptNumber" integer,
  "subscriptionId" text, url text, "callbackScopes" text[], "secretSealed" text, "previousSecretSealed" text,
  "previousSecretExpiresAt" timestamptz, payload text
) LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
PERFORM pg_advisory_xact_lock(7170002);
RETURN QUERY
WITH RECURSIVE tenants AS (
  (SELECT "tenantId" FROM "WebhookDelivery" WHERE status = 'pending' ORDER BY "tenantId" LIMIT 1)
  UNION ALL
  SELECT (SELECT d."tenantId" FROM "WebhookDelivery" d
          WHERE d.status = 'pending' AND d."tenantId" > t."tenantId" ORDER BY d."tenantId" LIMIT 1)
  FROM tenants t WHERE t."tenantId" IS NOT NULL
), candidates AS (
  SELECT c.* FROM tenants t CROSS JOIN LATERAL (
    SELECT d.id, d."tenantId", d."subscriptionId", d."nextAttemptAt"
    FROM "WebhookDelivery" d
    WHERE d.status = 'pending' AND d."tenantId" = t."tenantId" AND d."nextAttemptAt" <= $1
    ORDER BY d."nextAttemptAt" LIMIT least($2, $4)
    FOR UPDATE SKIP LOCKED
  ) c
  WHERE t."tenantId" IS NOT NULL
), examined AS (
  SELECT c.*, s.state, (s.state = 'Active' AND s."targetKind" = 'Http' AND s.url IS NOT NULL) AS deliverable
  FROM candidates c JOIN "WebhookSubscription" s ON s.id = c."subscriptionId" AND s."tenantId" = c."tenantId"
), in_flight AS (
  SELECT "tenantId", "subscriptionId", count(*)::int AS n
  FROM "WebhookDelivery" WHERE status = 'sending' GROUP BY "tenantId", "subscriptionId"
), ranked AS (
  SELECT e.id, e."tenantId", e."nextAttemptAt",
         row_number() OVER (PARTITION BY e."tenantId" ORDER BY e."nextAttemptAt", e.id) AS tenant_rank,
         row_number() OVER (PARTITION BY e."subscriptionId" ORDER BY e."nextAttemptAt", e.id) AS subscription_rank,
         coalesce((SELECT sum(f.n) FROM in_flight f WHERE f."tenantId" = e."tenantId"), 0) AS tenant_busy,
         coalesce((SELECT f.n FROM in_flight f WHERE f."tenantId" = e."tenantId" AND f."subscriptionId" = e."subscriptionId"), 0) AS subscription_busy
  FROM examined e WHERE e.deliverable
), chosen AS (
  SELECT id, "tenantId" FROM ranked
  WHERE tenant_busy + tenant_rank <= $2 AND subscription_busy + subscription_rank <= $3
  ORDER BY tenant_rank, "nextAttemptAt" LIMIT $4
), claimed AS (
  UPDATE "WebhookDelivery" AS d
  SET status = 'sending', "attemptCount" = d."attemptCount" + 1, "leaseExpiresAt" = $5, "lastAttemptAt" = $1,
      "nextAttemptAt" = NULL, "updatedAt" = $1
  -- By primary key alone (the rows are locked above, so still pending): any other condition here
  -- lets the session's generic plan walk a tenant's whole backlog by (status, tenantId).
  WHERE d.id = ANY(ARRAY(SELECT id FROM chosen))
  RETURNING d.id, d."tenantId", d."envelopeId", d."subscriptionId", d."eventType", d."scheduleOffset", d."attemptCount"
), dead AS (
  UPDATE "WebhookDelivery" AS d
  SET status = 'dead', "completedAt" = $1, "nextAttemptAt" = NULL, "updatedAt" = $1,
      "lastError" = 'The subscription was ' || e.state || ' when the attempt was due.'
  FROM examined e
  WHERE d.id = ANY(ARRAY(SELECT id FROM examined WHERE NOT deliverable)) AND d.id = e.id
), attempts AS (
  INSERT INTO "WebhookDeliveryAttempt" (id, "tenantId", "deliveryId", "attemptNumber", status, "startedAt")
  SELECT gen_random_uuid(), c."tenantId", c.id, c."attemptCount", 'sending', $1 FROM claimed c
)
SELECT c.id::text AS id, c."tenantId"::text AS "tenantId", c."envelopeId"::text AS "envelopeId", c."eventType",
       c."scheduleOffset", c."attemptCount" AS "attemptNumber", c."subscriptionId"::text AS "subscriptionId",
       s.url, s."callbackScopes", s."secretSealed", s."previousSecretSealed", s."previousSecretExpiresAt", e.payload
FROM claimed c
JOIN "WebhookSubscription" s ON s.id = c."subscriptionId" AND s."tenantId" = c."tenantId"
JOIN "WebhookEnvelope" e ON e.id = c."envelopeId" AND e."tenantId" = c."tenantId";
END
$$;
