-- Staff roles (issue 15 item 1): every existing staff user becomes an owner, so nobody loses access.
ALTER TABLE "User" ADD COLUMN "staffRole" TEXT;
UPDATE "User" SET "staffRole" = 'owner' WHERE "kind" = 'staff';

-- Audit trail (issue 15 item 2).
CREATE TABLE "AuditEvent" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenantId" UUID NOT NULL,
    "occurredAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorKind" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "actorLabel" TEXT,
    "source" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "entityKind" TEXT NOT NULL,
    "entityId" TEXT NOT NULL,
    "correlationId" TEXT,
    "changes" JSONB,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "AuditEvent_tenantId_occurredAt_idx" ON "AuditEvent"("tenantId", "occurredAt");
CREATE INDEX "AuditEvent_tenantId_entityId_idx" ON "AuditEvent"("tenantId", "entityId");
CREATE INDEX "AuditEvent_occurredAt_idx" ON "AuditEvent"("occurredAt");

ALTER TABLE "AuditEvent" ADD CONSTRAINT "AuditEvent_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The one place every mutation passes through: a row trigger on each audited table. It writes only
-- when the transaction carries an audit context (`licensing.audit`, set by server/db/audit-context.ts
-- for REST, tRPC and CLI mutations); the worker's own work and the runtime lane carry none, and the
-- triggers' WHEN clause skips them without entering PL/pgSQL.
-- Arguments: entity kind, the column holding the entity id (default "id").
-- Column names matching secrets, tokens, hashes, fingerprints, codes and signatures are never
-- copied: a changed one is recorded as {"redacted": true}.
CREATE FUNCTION licensing_audit_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ctx jsonb := current_setting('licensing.audit', true)::jsonb;
  id_column text := coalesce(TG_ARGV[1], 'id');
  old_row jsonb;
  new_row jsonb;
  subject jsonb;
  verb text;
  diff jsonb := NULL;
BEGIN
  IF TG_OP = 'INSERT' THEN
    new_row := to_jsonb(NEW); subject := new_row; verb := 'created';
  ELSIF TG_OP = 'DELETE' THEN
    old_row := to_jsonb(OLD); subject := old_row; verb := 'deleted';
  ELSE
    old_row := to_jsonb(OLD); new_row := to_jsonb(NEW); subject := new_row; verb := 'updated';
    SELECT jsonb_object_agg(
             n.key,
             CASE WHEN n.key ~* '(secret|password|token|hash|fingerprint|private|sealed|signature|signedpayload|^code$|normalizedcode|lookupkey|idempotency|requestkey)'
                  THEN jsonb_build_object('redacted', true)
                  ELSE jsonb_build_object('from', old_row -> n.key, 'to', n.value) END)
      INTO diff
      FROM jsonb_each(new_row) AS n
     WHERE n.key NOT IN ('updatedAt') AND (old_row -> n.key) IS DISTINCT FROM n.value;
    -- A save that changes nothing (at most a revision bump) leaves no trace.
    IF diff IS NULL OR (diff - 'revisionNumber') = '{}'::jsonb THEN RETURN NULL; END IF;
    -- Soft deletes (isDeleted set) read as deletes.
    IF diff ? 'isDeleted' AND (new_row ->> 'isDeleted') = 'true' THEN verb := 'deleted'; END IF;
  END IF;
  INSERT INTO "AuditEvent" ("tenantId", "occurredAt", "actorKind", "actorId", "actorLabel", "source",
                            "operation", "action", "entityKind", "entityId", "correlationId", "changes")
  VALUES ((subject ->> 'tenantId')::uuid,
          coalesce((ctx ->> 'at')::timestamptz, now()),
          ctx ->> 'actorKind', ctx ->> 'actorId', ctx ->> 'actorLabel', ctx ->> 'source',
          ctx ->> 'operation', TG_ARGV[0] || '.' || verb, TG_ARGV[0], subject ->> id_column,
          ctx ->> 'correlationId', diff);
  RETURN NULL;
END $$;

DO $$
DECLARE
  audited text[][] := ARRAY[
    ['User', 'user', 'id'],
    ['OAuthClient', 'client', 'id'],
    ['SigningKey', 'signingKey', 'id'],
    ['Tag', 'tag', 'id'],
    ['TagAssignment', 'tagAssignment', 'tagId'],
    ['Product', 'product', 'id'],
    ['ProductFeature', 'productFeature', 'id'],
    ['FeatureCatalogEntry', 'featureCatalogEntry', 'id'],
    ['MonitoredAsset', 'monitoredAsset', 'id'],
    ['MeteredUsage', 'meteredUsage', 'id'],
    ['BalanceUsage', 'balanceUsage', 'id'],
    ['Suite', 'suite', 'id'],
    ['SuiteMember', 'suiteMember', 'suiteId'],
    ['UsagePlanSet', 'planSet', 'id'],
    ['UsagePlan', 'plan', 'id'],
    ['UsagePlanLineItem', 'planLineItem', 'id'],
    ['UsagePlanFeatureValue', 'planFeatureValue', 'id'],
    ['AddOn', 'addOn', 'id'],
    ['AddOnFeatureValue', 'addOnFeatureValue', 'id'],
    ['AddOnGrant', 'addOnGrant', 'id'],
    ['RatingCampaign', 'ratingCampaign', 'id'],
    ['RatingCampaignTarget', 'ratingCampaignTarget', 'id'],
    ['Offer', 'offer', 'id'],
    ['Entitlement', 'entitlement', 'id'],
    ['EntitlementBilling', 'billing', 'id'],
    ['PlanChangeRequest', 'planChangeRequest', 'id'],
    ['CustomerUser', 'customerUser', 'id'],
    ['CustomerOrganization', 'customerOrganization', 'id'],
    ['ActivationCode', 'activationCode', 'id'],
    ['Device', 'device', 'id'],
    ['LicenseSession', 'session', 'id'],
    ['OfflineActivation', 'offlineActivation', 'id'],
    ['WebhookSubscription', 'subscription', 'id']
  ];
  i int;
BEGIN
  FOR i IN 1 .. array_length(audited, 1) LOOP
    EXECUTE format(
      'CREATE TRIGGER licensing_audit AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW '
      'WHEN (coalesce(current_setting(''licensing.audit'', true), '''') <> '''') '
      'EXECUTE FUNCTION licensing_audit_row(%L, %L)',
      audited[i][1], audited[i][2], audited[i][3]);
  END LOOP;
END $$;

-- Retention (issue 15 item 4): the sweep walks envelopes by age.
CREATE INDEX "WebhookEnvelope_createdAt_idx" ON "WebhookEnvelope"("createdAt");
