import { monthIndex } from "./report-sql.ts";

/** The revenue report's statements (revenue.ts); every one filters the tenant, `$1`. */

/** Segments of plan assignment cut to the period: $1 tenant, $2 from, $3 to. */
const ACTIVE_SEGMENTS = `
  WITH segments AS (
    SELECT h.id AS "segmentId", h."entitlementId", h."newPlanSetId" AS "planSetId", h."newPlanName" AS "planName",
           h."changedAt" AS s0,
           lead(h."changedAt") OVER (PARTITION BY h."entitlementId" ORDER BY h."changedAt", h.id) AS e0
    FROM "EntitlementPlanHistory" h
    WHERE h."tenantId" = $1::uuid AND h."changedAt" < $3::timestamptz
  ),
  cut AS (
    SELECT sg."segmentId", sg."entitlementId", sg."planSetId", sg."planName",
           e.name AS "entitlementName", e."customerId", e."isEntitlementTrial",
           greatest(sg.s0, coalesce(e."notValidBeforeDateTime", sg.s0), $2::timestamptz) AS s,
           least(coalesce(sg.e0, $3::timestamptz), coalesce(e."expirationDateTime", $3::timestamptz),
                 coalesce(e."archivedAt", $3::timestamptz), $3::timestamptz) AS e
    FROM segments sg
    JOIN "Entitlement" e ON e.id = sg."entitlementId" AND e."tenantId" = $1::uuid
    WHERE e.status IN ('Published', 'Archived')
  ),
  lapses AS (
    SELECT r."entitlementId", r."previousExpirationDateTime" AS ls, r."renewedAt" AS le
    FROM "EntitlementRenewal" r
    WHERE r."tenantId" = $1::uuid AND r."previousExpirationDateTime" < r."renewedAt"
      AND r."renewedAt" > $2::timestamptz AND r."previousExpirationDateTime" < $3::timestamptz
  ),
  lapsed AS (
    SELECT c."segmentId",
           sum(${monthIndex("least(l.le, c.e)")} - ${monthIndex("greatest(l.ls, c.s)")}) AS months
    FROM cut c JOIN lapses l ON l."entitlementId" = c."entitlementId" AND l.ls < c.e AND l.le > c.s
    GROUP BY c."segmentId"
  ),
  active AS (
    SELECT c.*, ${monthIndex("c.e")} - ${monthIndex("c.s")} - coalesce(l.months, 0) AS months
    FROM cut c LEFT JOIN lapsed l ON l."segmentId" = c."segmentId"
    WHERE c.e > c.s
  )`;

const PLAN_JOIN = `LEFT JOIN "UsagePlan" p ON p."tenantId" = $1::uuid AND p."planSetId" = a."planSetId" AND p.name = a."planName"`;

/**
 * Per plan and trial flag (an entitlement counted once per plan however many segments it has),
 * plus one row of the trials' distinct entitlements and months across plans.
 */
export const REVENUE_BY_PLAN_SQL = `${ACTIVE_SEGMENTS},
  held AS (
    SELECT "entitlementId", "planSetId", "planName", "isEntitlementTrial" AS trial, sum(months) AS months
    FROM active GROUP BY 1, 2, 3, 4
  ),
  plans AS (
    SELECT "planSetId", "planName", trial, count(*)::int AS "entitlementCount", sum(months) AS months
    FROM held GROUP BY 1, 2, 3
  )
  SELECT a."planSetId", a."planName", a.trial, false AS "isTotal", a."entitlementCount",
         round(a.months::numeric, 6)::text AS months,
         p.id AS "planId", p."pricingMode", p."monthlyPrice"::text AS "monthlyPrice", p.currency, p."relativeWeight",
         round(a.months::numeric * p."monthlyPrice", 6)::text AS revenue
  FROM plans a ${PLAN_JOIN}
  UNION ALL
  SELECT NULL, NULL, true, true, count(DISTINCT "entitlementId")::int, round(coalesce(sum(months), 0)::numeric, 6)::text,
         NULL, NULL, NULL, NULL, NULL, NULL
  FROM held WHERE trial`;

/** One line per entitlement and plan segment, for the CSV export. */
export const REVENUE_LINES_SQL = `${ACTIVE_SEGMENTS}
  SELECT a."entitlementId", a."entitlementName", a."customerId", a."isEntitlementTrial", a."planSetId", a."planName",
         p."pricingMode", p."monthlyPrice"::text AS "monthlyPrice", p.currency, p."relativeWeight",
         a.s AS "from", a.e AS "to", round(a.months::numeric, 6)::text AS months,
         CASE WHEN NOT a."isEntitlementTrial" AND p."pricingMode" = 'Absolute'
              THEN round(a.months::numeric * p."monthlyPrice", 6)::text END AS revenue
  FROM active a ${PLAN_JOIN}
  ORDER BY a."entitlementId", a.s`;
