import { METER_VERSION_EXPRESSION } from "../meters/meter-version.ts";
import { RATE_LIMIT_ROWS, rateLimitCountCte, WITHIN_RATE_LIMITS } from "../../rate-limits/hit-rate-limits.ts";

/**
 * The statements of a consume (docs/architecture.md sections 11 and 13). $1 tenant, $2 entitlement throughout.
 * Beside its lock, each locking read returns what the decision needs: the session's liveness, the
 * terms' version, the meter's suspension and last reported severity, and a remembered
 * idempotencyKey. Locks are always taken in the order meter period → balances (by id) →
 * metered usage, by every writer, so no two metering transactions deadlock.
 */

const sessionAndKey = `
  LEFT JOIN "LicenseSession" s ON s."tenantId" = $1 AND s.id = $3 AND s."entitlementId" = $2
  LEFT JOIN "Entitlement" e ON e."tenantId" = $1 AND e.id = $2
  LEFT JOIN "ConsumeIdempotencyKey" k ON k."tenantId" = $1 AND k."entitlementId" = $2 AND k.key = $4`;

const sessionAndKeyColumns = `
  (s."revokedAt" IS NULL AND s."graceExpiresAt" > $5 AND e.status = 'Published') IS TRUE AS live,
  ${METER_VERSION_EXPRESSION} AS version,
  k."metricName" AS "keyMetric", k.amount::text AS "keyAmount", k.decision AS "keyDecision"`;

/**
 * Makes the period's row if it is the first consume in the period and locks it (an upsert locks
 * the row it updates), answering its counters as of the lock. Params: $1 tenant, $2 entitlement,
 * $3 session, $4 idempotencyKey, $5 now, $6 asset, $7 period key, $8 metric, $9 metricType,
 * $10 period start, $11 period end, $12 meteredUsage id.
 */
export const LOCK_METER_PERIOD = `
WITH p AS (
  INSERT INTO "MeterPeriod" AS mp ("tenantId", "monitoredAssetId", "periodKey", "entitlementId", "metricName", "metricType", "periodStart", "periodEnd", "createdAt", "updatedAt")
  VALUES ($1, $6, $7, $2, $8, $9, $10, $11, $5, $5)
  ON CONFLICT ("tenantId", "monitoredAssetId", "periodKey") DO UPDATE SET "usageBefore" = mp."usage"
  RETURNING mp."usage"::text AS usage, mp."creditsPriced"::text AS "creditsPriced"
)
SELECT p.usage, p."creditsPriced", mu."suspendedUntilAt" AS "meterSuspendedUntilAt",
  mu."lastReportedOverageSeverityStatus" AS "lastSeverity", ${sessionAndKeyColumns}
FROM p
  LEFT JOIN "MeteredUsage" mu ON mu."tenantId" = $1 AND mu.id = $12 ${sessionAndKey}`;

/** The same facts without a lock and without making the row (preview-consume changes nothing). Same params. */
export const READ_METER_PERIOD = `
SELECT coalesce(mp.usage, 0)::text AS usage, coalesce(mp."creditsPriced", 0)::text AS "creditsPriced",
  mu."suspendedUntilAt" AS "meterSuspendedUntilAt", mu."lastReportedOverageSeverityStatus" AS "lastSeverity",
  ${sessionAndKeyColumns}, $8::text AS metric, $9::text AS "metricType", $10::timestamptz AS "periodStart", $11::timestamptz AS "periodEnd"
FROM (SELECT 1) one
  LEFT JOIN "MeterPeriod" mp ON mp."tenantId" = $1 AND mp."monitoredAssetId" = $6 AND mp."periodKey" = $7
  LEFT JOIN "MeteredUsage" mu ON mu."tenantId" = $1 AND mu.id = $12 ${sessionAndKey}`;

const balanceColumns = `bu.id, bu."totalCredits"::text AS "totalCredits", bu."creditsUsed"::text AS "creditsUsed",
  bu."isUnlimitedCredits", bu."suspendedUntilAt", bu."usageQuota", bu."overageSeverityStatus"`;

/** A consume of a credit balance's own metric: the balance row is the meter. $6 balance id. */
export const LOCK_OWN_BALANCE = `
SELECT ${balanceColumns}, ${sessionAndKeyColumns}
FROM "BalanceUsage" bu ${sessionAndKey}
WHERE bu."tenantId" = $1 AND bu.id = $6
FOR UPDATE OF bu`;

export const READ_OWN_BALANCE = `
SELECT ${balanceColumns}, ${sessionAndKeyColumns}
FROM "BalanceUsage" bu ${sessionAndKey}
WHERE bu."tenantId" = $1 AND bu.id = $6`;

/** Funding balances of a charge, locked in id order. $1 tenant, $2 ids. */
export const LOCK_BALANCES = `
SELECT ${balanceColumns} FROM "BalanceUsage" bu
WHERE bu."tenantId" = $1 AND bu.id = ANY($2::uuid[]) ORDER BY bu.id FOR UPDATE`;

export const READ_BALANCES = `
SELECT ${balanceColumns} FROM "BalanceUsage" bu
WHERE bu."tenantId" = $1 AND bu.id = ANY($2::uuid[]) ORDER BY bu.id`;

/**
 * The committed consume in one statement: the idempotency key (when given; every write below is
 * conditional on it being new, so a concurrent duplicate writes nothing), the ledger entry, the
 * period counters, the charged balances and their history.
 * $1 tenant, $2 entitlement, $3 consume entry id, $4 session, $5 metric, $6 amount, $7 asset,
 * $8 period key, $9 usage after, $10 now, $11 tier, $12 severity, $13 key, $14 decision JSON,
 * $15 overage units, $16 credits priced, $17 credits charged, $18 funding metric,
 * $19 balance after, $20 balance ids, $21 paid, $22 severities, $23 history operation,
 * $24 balance metric names.
 */
export const WRITE_CONSUME = `
WITH k AS (
  INSERT INTO "ConsumeIdempotencyKey" ("tenantId", "entitlementId", key, "metricName", amount, "consumeEntryId", decision, "createdAt")
  SELECT $1, $2, $13, $5, $6, $3, $14, $10 WHERE $13::text IS NOT NULL
  ON CONFLICT DO NOTHING RETURNING 1
), go AS (
  SELECT 1 AS ok WHERE $13::text IS NULL OR EXISTS (SELECT 1 FROM k)
), c AS (
  INSERT INTO "ConsumeEntry" ("tenantId", id, "entitlementId", "sessionId", "monitoredAssetId", "metricName", amount, "periodKey", "usageAfter", "tierName", severity, "overageUnits", "creditsPriced", "creditsCharged", "fundingMetricName", "balanceAfter", "idempotencyKey", "createdAt")
  SELECT $1, $3, $2, $4, $7, $5, $6, $8, $9, $11, $12, $15, $16, $17, $18, $19, $13, $10 FROM go
  RETURNING 1
), p AS (
  UPDATE "MeterPeriod" SET "usageBefore" = "usage", "usage" = "usage" + $6, "consumedUsage" = "consumedUsage" + $6,
    "creditsPriced" = "creditsPriced" + $16, "creditsCharged" = "creditsCharged" + $17,
    "consumeCount" = "consumeCount" + 1, "updatedAt" = $10
  WHERE "tenantId" = $1 AND "monitoredAssetId" = $7 AND "periodKey" = $8 AND EXISTS (SELECT 1 FROM go)
  RETURNING 1
), b AS (
  UPDATE "BalanceUsage" bu SET "creditsUsed" = bu."creditsUsed" + x.paid,
    "cumulativeCreditsUsed" = bu."cumulativeCreditsUsed" + x.paid, "overageSeverityStatus" = x.severity, "updatedAt" = $10
  FROM unnest($20::uuid[], $21::numeric[], $22::text[], $24::text[]) AS x(id, paid, severity, metric)
  WHERE bu."tenantId" = $1 AND bu.id = x.id AND EXISTS (SELECT 1 FROM go)
  RETURNING bu.id, x.metric, x.paid, bu."totalCredits", bu."creditsUsed"
), h AS (
  INSERT INTO "BalanceHistoryEntry" (id, "tenantId", "balanceUsageId", "entitlementId", "metricName", operation, amount, "totalCreditsAfter", "creditsUsedAfter", "sourceRef", "actorKind", "actorId", "createdAt")
  SELECT gen_random_uuid(), $1, b.id, $2, b.metric, $23, b.paid, b."totalCredits", b."creditsUsed", 'consume:' || $3, 'license', $4, $10
  FROM b ORDER BY b.id
  RETURNING 1
)
SELECT (SELECT count(*) FROM go)::int AS written,
  (SELECT count(*) FROM c)::int AS entries, (SELECT count(*) FROM p)::int AS periods, (SELECT count(*) FROM h)::int AS history`;

/** A key remembered by a concurrent consume that committed first. */
export const READ_KEY = `
SELECT k."metricName" AS "keyMetric", k.amount::text AS "keyAmount", k.decision AS "keyDecision"
FROM "ConsumeIdempotencyKey" k WHERE k."tenantId" = $1 AND k."entitlementId" = $2 AND k.key = $3`;

/**
 * The fast path of a consume (no idempotencyKey, the period's row already made): one
 * autocommitted statement that adds the amount and writes the ledger entry only if the session
 * is live, the terms are current, the meter is not suspended, and the usage before and after lie
 * in one free region (ladder.ts `freeRegions`) whose severity is the one last reported. The
 * UPDATE re-checks its conditions on the row's latest version after waiting for its lock, so it
 * is exact under concurrency; when it writes nothing the consume takes the locking path.
 * The request's rate limits are counted in the same round trip (rateLimitCountCte, $16-$24):
 * over a limit, the statement writes nothing but the count, and `limits` says so.
 * $1 tenant, $2 entitlement, $3 session, $4 consume entry id, $5 now, $6 amount, $7 asset,
 * $8 period key, $9 terms version, $10 meteredUsage id, $11-$13 and $15 the regions (low, high,
 * severity, tier), $14 metric.
 */
export const FAST_CONSUME = `
WITH ${rateLimitCountCte(16)}, ok AS (
  SELECT 1 FROM "LicenseSession" s
    JOIN "Entitlement" e ON e."tenantId" = s."tenantId" AND e.id = s."entitlementId"
  WHERE s."tenantId" = $1 AND s.id = $3 AND s."entitlementId" = $2
    AND s."revokedAt" IS NULL AND s."graceExpiresAt" > $5 AND e.status = 'Published'
    AND ${METER_VERSION_EXPRESSION} = $9 AND ${WITHIN_RATE_LIMITS}
), mu AS (
  SELECT "suspendedUntilAt", "lastReportedOverageSeverityStatus" AS reported FROM "MeteredUsage"
  WHERE "tenantId" = $1 AND id = $10
), p AS (
  UPDATE "MeterPeriod" mp SET "usageBefore" = mp.usage, usage = mp.usage + $6,
    "consumedUsage" = mp."consumedUsage" + $6, "consumeCount" = mp."consumeCount" + 1, "updatedAt" = $5
  WHERE mp."tenantId" = $1 AND mp."monitoredAssetId" = $7 AND mp."periodKey" = $8
    AND EXISTS (SELECT 1 FROM ok)
    AND NOT EXISTS (SELECT 1 FROM mu WHERE mu."suspendedUntilAt" > $5)
    AND EXISTS (
      SELECT 1 FROM unnest($11::numeric[], $12::numeric[], $13::text[]) AS r(lo, hi, severity)
      WHERE mp.usage >= r.lo AND (r.hi IS NULL OR mp.usage + $6 <= r.hi)
        AND r.severity = coalesce((SELECT reported FROM mu), r.severity))
  RETURNING mp.usage AS after, mp."usageBefore" AS before
), c AS (
  INSERT INTO "ConsumeEntry" ("tenantId", id, "entitlementId", "sessionId", "monitoredAssetId", "metricName", amount,
    "periodKey", "usageAfter", "tierName", severity, "createdAt")
  SELECT $1, $4, $2, $3, $7, $14, $6, $8, p.after, r.tier, r.severity, $5
  FROM p CROSS JOIN LATERAL (
    SELECT x.tier, x.severity FROM unnest($11::numeric[], $12::numeric[], $13::text[], $15::text[]) AS x(lo, hi, severity, tier)
    WHERE p.before >= x.lo AND (x.hi IS NULL OR p.after <= x.hi) LIMIT 1) r
  RETURNING 1
)
SELECT (SELECT after::text FROM p) AS usage, (SELECT count(*) FROM c)::int AS entries, ${RATE_LIMIT_ROWS} AS limits`;
