import { METER_VERSION_EXPRESSION } from "../meters/meter-version.ts";
import { RATE_LIMIT_ROWS, rateLimitCountCte, WITHIN_RATE_LIMITS } from "../../rate-limits/hit-rate-limits.ts";

/** The new reportedUsage of a period row, by the metric's metricType (sum, latest level, maximum). */
const reported = `CASE mp."metricType"
      WHEN 'Gauge' THEN CASE WHEN mp."lastRecordAt" IS NULL OR EXCLUDED."lastRecordAt" >= mp."lastRecordAt"
                             THEN EXCLUDED."reportedUsage" ELSE mp."reportedUsage" END
      WHEN 'Maximum' THEN greatest(mp."reportedUsage", EXCLUDED."reportedUsage")
      ELSE mp."reportedUsage" + EXCLUDED."reportedUsage" END`;

/**
 * A usage batch in one statement (docs/architecture.md sections 11 and 13): the records go into the ledger
 * (`ON CONFLICT DO NOTHING` on license + transactionId: a record uploaded before, under any
 * session, is not counted again), and only the records this statement inserted are added to
 * their periods' counters, whose rows are made or locked in (asset, period) order. Nothing is
 * written unless the uploading session is live (when one uploads), the meter terms the
 * records were classified with are current and the request is within its rate limits (counted in
 * the same round trip, rateLimitCountCte: $23-$31; nothing to count when already counted).
 * $1 tenant, $2 entitlement, $3 uploading session (null: entitlement upload), $4 now, $5 terms
 * version, $6 whether a session uploads; $7-$22 the records as parallel arrays.
 */
export const RECORD_USAGE = `
WITH ${rateLimitCountCte(23)}, v AS (
  SELECT ${METER_VERSION_EXPRESSION} AS version,
    (NOT $6::boolean OR (s."revokedAt" IS NULL AND s."graceExpiresAt" > $4 AND e.status = 'Published') IS TRUE) AS live
  FROM (SELECT 1) one
    LEFT JOIN "LicenseSession" s ON s."tenantId" = $1 AND s.id = $3 AND s."entitlementId" = $2
    LEFT JOIN "Entitlement" e ON e."tenantId" = $1 AND e.id = $2
), input AS (
  SELECT * FROM unnest($7::bigint[], $8::uuid[], $9::int[], $10::timestamptz[], $11::text[], $12::text[], $13::text[],
      $14::text[], $15::uuid[], $16::text[], $17::numeric[], $18::text[], $19::timestamptz[], $20::timestamptz[],
      $21::text[], $22::boolean[])
    AS i(tx, session, api, created, event, data, status, note, asset, metric, amount, period, "periodStart", "periodEnd", "metricType", meter)
), ins AS (
  INSERT INTO "UsageRecord" ("tenantId", "entitlementId", "transactionId", "sessionId", "uploadSessionId", "apiVersion", "creationDateTime",
    "eventName", "eventData", status, note, "monitoredAssetId", "metricName", amount, "periodKey", "receivedAt")
  SELECT $1, $2, i.tx, i.session, $3, i.api, i.created, i.event, i.data, i.status, i.note, i.asset, i.metric, i.amount, i.period, $4
  FROM input i, v WHERE v.live AND v.version = $5 AND ${WITHIN_RATE_LIMITS}
  ON CONFLICT DO NOTHING
  RETURNING "transactionId"
), agg AS (
  SELECT i.asset, i.period, min(i.metric) AS metric, min(i."metricType") AS "metricType",
    min(i."periodStart") AS "periodStart", min(i."periodEnd") AS "periodEnd",
    CASE min(i."metricType") WHEN 'Gauge' THEN (array_agg(i.amount ORDER BY i.created DESC, i.tx DESC))[1]
                             WHEN 'Maximum' THEN max(i.amount) ELSE sum(i.amount) END AS reported,
    max(i.created) AS "latestAt", count(*)::int AS n
  FROM ins JOIN input i ON i.tx = ins."transactionId"
  WHERE i.meter
  GROUP BY i.asset, i.period
), up AS (
  INSERT INTO "MeterPeriod" AS mp ("tenantId", "monitoredAssetId", "periodKey", "entitlementId", "metricName", "metricType",
    "periodStart", "periodEnd", usage, "reportedUsage", "recordCount", "lastRecordAt", "createdAt", "updatedAt")
  SELECT $1, a.asset, a.period, $2, a.metric, a."metricType", a."periodStart", a."periodEnd", a.reported, a.reported, a.n, a."latestAt", $4, $4
  FROM agg a ORDER BY a.asset, a.period
  ON CONFLICT ("tenantId", "monitoredAssetId", "periodKey") DO UPDATE SET
    "usageBefore" = mp.usage,
    "reportedUsage" = ${reported},
    usage = mp."consumedUsage" + ${reported},
    "recordCount" = mp."recordCount" + EXCLUDED."recordCount",
    "lastRecordAt" = greatest(mp."lastRecordAt", EXCLUDED."lastRecordAt"),
    "updatedAt" = $4
  RETURNING mp."monitoredAssetId" AS asset, mp."periodKey" AS period, mp."usageBefore"::text AS before,
    mp.usage::text AS after, mp."creditsPriced"::text AS "creditsPriced"
)
SELECT (SELECT live FROM v) AS live, (SELECT version FROM v) AS version,
  (SELECT coalesce(array_agg("transactionId"::text), '{}') FROM ins) AS inserted,
  (SELECT coalesce(json_agg(up), '[]') FROM up) AS meters, ${RATE_LIMIT_ROWS} AS limits`;

/** The last reported severities of metered meters, read after their periods are locked. $1 tenant, $2 ids. */
export const READ_REPORTED_SEVERITIES = `
SELECT id, "lastReportedOverageSeverityStatus" AS severity FROM "MeteredUsage"
WHERE "tenantId" = $1 AND id = ANY($2::uuid[])`;

/**
 * What a batch's counted usage costs: the charged balances (what they paid, what they could not),
 * one history entry per balance, each record's share and the periods' priced credits.
 * $1 tenant, $2 entitlement, $3 now; $4-$9 balances; $10, $11 actor; $12-$14, $19 records; $15-$18 periods.
 */
export const APPLY_USAGE_CHARGES = `
WITH b AS (
  UPDATE "BalanceUsage" bu SET "creditsUsed" = bu."creditsUsed" + x.paid,
    "cumulativeCreditsUsed" = bu."cumulativeCreditsUsed" + x.paid,
    "unfundedCredits" = bu."unfundedCredits" + x.unfunded,
    "lastUnfundedAt" = CASE WHEN x.unfunded > 0 THEN $3 ELSE bu."lastUnfundedAt" END,
    "overageSeverityStatus" = x.severity, "updatedAt" = $3
  FROM unnest($4::uuid[], $5::numeric[], $6::numeric[], $7::text[], $8::text[], $9::text[]) AS x(id, paid, unfunded, severity, metric, ref)
  WHERE bu."tenantId" = $1 AND bu.id = x.id
  RETURNING bu.id, x.metric, x.paid, x.unfunded, x.ref, bu."totalCredits", bu."creditsUsed"
), h AS (
  INSERT INTO "BalanceHistoryEntry" (id, "tenantId", "balanceUsageId", "entitlementId", "metricName", operation, amount,
    "totalCreditsAfter", "creditsUsedAfter", "unfundedAmount", "sourceRef", "actorKind", "actorId", "createdAt")
  SELECT gen_random_uuid(), $1, b.id, $2, b.metric, 'UsageCharge', b.paid, b."totalCredits", b."creditsUsed", b.unfunded, b.ref, $10, $11, $3
  FROM b ORDER BY b.id
  RETURNING 1
), r AS (
  UPDATE "UsageRecord" ur SET "creditsPriced" = y.priced, "creditsCharged" = y.paid, "unfundedCredits" = y.unfunded
  FROM unnest($12::bigint[], $13::numeric[], $14::numeric[], $19::numeric[]) AS y(tx, paid, unfunded, priced)
  WHERE ur."tenantId" = $1 AND ur."entitlementId" = $2 AND ur."transactionId" = y.tx
  RETURNING 1
), p AS (
  UPDATE "MeterPeriod" mp SET "creditsPriced" = mp."creditsPriced" + z.priced, "creditsCharged" = mp."creditsCharged" + z.paid
  FROM unnest($15::uuid[], $16::text[], $17::numeric[], $18::numeric[]) AS z(asset, period, priced, paid)
  WHERE mp."tenantId" = $1 AND mp."monitoredAssetId" = z.asset AND mp."periodKey" = z.period
  RETURNING 1
)
SELECT (SELECT count(*) FROM h)::int AS history, (SELECT count(*) FROM r)::int AS records, (SELECT count(*) FROM p)::int AS periods`;
