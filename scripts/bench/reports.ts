// Reports benchmark: the production build on a fresh database, one tenant with
// 100,000 entitlements (plan history with plan changes and renewal lapses, 100,000 devices and
// about 150,000 sessions over the last year, metered usage: 120,000 meters, 200,000 consumes and
// 220,000 uploaded records) beside a noise tenant of 50,000 and a small one of a
// dozen, then each report over HTTP (JSON and the streamed CSV) and the plan of each report
// statement (EXPLAIN ANALYZE) for the large and the small tenant: which indexes the tenant filter
// uses when a tenant is a small share of a table, and that a tenant holding most of it is read
// sequentially.
import pg from "pg";
import { createDb } from "../../server/db/client.ts";
import { systemContext } from "../../server/domain/context.ts";
import { createTenant } from "../../server/domain/cross-tenant.ts";
import { createClient } from "../../server/domain/identity/oauth-clients.ts";
import { REVENUE_BY_PLAN_SQL, REVENUE_LINES_SQL } from "../../server/domain/reports/revenue-sql.ts";
import {
  SEAT_CAPACITY_BY_BUCKET_SQL,
  SEAT_UTILIZATION_BY_ENTITLEMENT_SQL,
  SEATS_IN_USE_BY_BUCKET_SQL,
} from "../../server/domain/reports/seat-utilization.ts";
import { ACTIVATIONS_BY_BUCKET_SQL } from "../../server/domain/reports/activations.ts";
import { VALUE_BY_FEATURE_SQL } from "../../server/domain/reports/value-delivered.ts";
import { bucketBounds, periodBuckets } from "../../server/domain/reports/report-period.ts";
import { seedRevenueData } from "../../tests/helpers/report-fixtures.ts";
import { REPORT_WORK_MEM } from "../../server/db/report-queries.ts";
import { startTestServer, TEST_APP_SECRET } from "../../tests/helpers/test-server.ts";

type Timing = { runs: number; minMs: number; medianMs: number; maxMs: number };
type Scan = { node: string; relation?: string; index?: string; rows: number };
type PlanSummary = { executionMs: number; scans: Scan[] };

export type ReportsBenchResult = {
  scenario: "reports";
  entitlements: number;
  sessions: number;
  consumeEntries: number;
  usageRecords: number;
  noiseTenantEntitlements: number;
  json: Record<string, Timing>;
  csv: Record<string, Timing & { rows: number; bytes: number }>;
  /** The 100,000-license tenant: most of every table, so PostgreSQL reads them sequentially. */
  plans: Record<string, PlanSummary>;
  /** A tenant of a dozen licenses in the same tables: the tenantId-leading indexes. */
  plansSmallTenant: Record<string, PlanSummary>;
};

const RUNS = 5;
const REPORTS = "/api/v1/provision/admin/reports";

/** One tenant's licenses, plan history, renewals, devices and sessions, written set-wise. */
export async function seedTenant(
  client: pg.Client,
  tenantId: string,
  count: number,
  plans: { absolute: string; relative: string },
) {
  await client.query(
    `INSERT INTO "Entitlement" (id, "tenantId", status, name, features, "activationPolicy", "keyIssuancePolicy",
       "claimBasedActivation", "productIds", "planSetId", "planName", "createdAt", "updatedAt",
       "expirationDateTime", "isEntitlementTrial")
     SELECT gen_random_uuid(), $1::uuid, CASE WHEN g % 50 = 0 THEN 'Draft' ELSE 'Published' END, 'Bench license ' || g,
       '[]', '{}', '{}', jsonb_build_object('leaseTime', 'PT1H', 'gracePeriod', 'P1D', 'numberOfSeats', 1 + g % 5,
       'isFloatingLicense', g % 5 > 0), '{}',
       CASE WHEN g % 10 = 0 THEN $3::uuid ELSE $2::uuid END,
       CASE WHEN g % 10 = 0 THEN (ARRAY['Small','Large','Zero','Unweighted'])[1 + (g / 10) % 4]
            ELSE (ARRAY['Basic','Pro','Team','Free','Unpriced'])[1 + g % 5] END,
       now() - (g % 540) * interval '1 day', now(),
       CASE WHEN g % 3 = 0 THEN now() - (g % 540) * interval '1 day' + interval '400 days' END,
       g % 20 = 0
     FROM generate_series(1, $4::int) g`,
    [tenantId, plans.absolute, plans.relative, count],
  );
  await client.query(
    `INSERT INTO "EntitlementPlanHistory" (id, "tenantId", "entitlementId", "changedAt", "newPlanSetId", "newPlanName", source)
     SELECT gen_random_uuid(), "tenantId", id, "createdAt", "planSetId", "planName", 'Issued'
     FROM "Entitlement" WHERE "tenantId" = $1::uuid AND "planSetId" IS NOT NULL`,
    [tenantId],
  );
  // A quarter of the Absolute licenses moved to Pro 60 days in.
  await client.query(
    `INSERT INTO "EntitlementPlanHistory" (id, "tenantId", "entitlementId", "changedAt", "previousPlanSetId",
       "previousPlanName", "newPlanSetId", "newPlanName", source)
     SELECT gen_random_uuid(), "tenantId", id, "createdAt" + interval '60 days', "planSetId", "planName", "planSetId", 'Pro',
       'ManualAdminAction'
     FROM "Entitlement" WHERE "tenantId" = $1::uuid AND "planSetId" = $2::uuid AND "planName" <> 'Pro'
       AND hashtext(id::text) % 4 = 0`,
    [tenantId, plans.absolute],
  );
  // A tenth of the expiring ones lapsed for 20 days before a renewal.
  await client.query(
    `INSERT INTO "EntitlementRenewal" (id, "tenantId", "entitlementId", "renewedAt", "previousExpirationDateTime",
       "expirationDateTime", "renewedBy")
     SELECT gen_random_uuid(), "tenantId", id, "createdAt" + interval '220 days', "createdAt" + interval '200 days',
       "expirationDateTime", 'system:bench'
     FROM "Entitlement" WHERE "tenantId" = $1::uuid AND "expirationDateTime" IS NOT NULL AND hashtext(id::text) % 10 = 0`,
    [tenantId],
  );
  await client.query(
    `INSERT INTO "Device" (id, "tenantId", "entitlementId", "fingerprintHash", "createdAt", "updatedAt")
     SELECT gen_random_uuid(), "tenantId", id, md5(id::text), now(), now()
     FROM "Entitlement" WHERE "tenantId" = $1::uuid AND status = 'Published'`,
    [tenantId],
  );
  // One or two sessions per device over the last year, held for up to 30 days, a third revoked early.
  await client.query(
    `INSERT INTO "LicenseSession" (id, "tenantId", "entitlementId", "deviceId", "productIds", "activatedAt",
       "leaseExpiresAt", "graceExpiresAt", "seatHeldUntil", "revokedAt", "revocationReason", "activationKind",
       "createdAt", "updatedAt")
     SELECT gen_random_uuid(), d."tenantId", d."entitlementId", d.id, '{}', s.at, s.until, s.until + interval '1 day',
       s.until, CASE WHEN n % 3 = 0 THEN s.at + (s.until - s.at) / 2 END,
       CASE WHEN n % 3 = 0 THEN 'Released' ELSE 'None' END, CASE WHEN n % 17 = 0 THEN 'Offline' ELSE 'Online' END,
       s.at, s.at
     FROM (SELECT d.*, row_number() OVER () AS n FROM "Device" d WHERE d."tenantId" = $1::uuid) d
     CROSS JOIN LATERAL generate_series(1, 1 + (d.n % 2)::int) k
     CROSS JOIN LATERAL (SELECT now() - ((d.n * 7 + k * 13) % 365) * interval '1 day' - (k % 24) * interval '1 hour' AS at) a
     CROSS JOIN LATERAL (SELECT a.at, a.at + ((d.n + k) % 720) * interval '1 hour' AS until) s`,
    [tenantId],
  );
}

/**
 * Metered usage for the value-delivered report: catalog entries `api-calls` (valueScore 0.5),
 * `storage-gb` (a Gauge, 2) and `exports` (not valued); every Published license meters api-calls
 * (two consumes and two uploaded records over the last year), every fourth also storage-gb (one
 * reading) and every tenth exports (one consume).
 */
export async function seedUsage(client: pg.Client, tenantId: string) {
  await client.query(
    `INSERT INTO "FeatureCatalogEntry" (id, "tenantId", "featureCode", "activeCodeKey", name, "metricName",
       "featureType", "lifecycleStatus", "valueScore", "updatedAt")
     SELECT gen_random_uuid(), $1::uuid, c, c, n, m, 'Metered', 'Published', v, now()
     FROM (VALUES ('API_CALLS', 'API calls', 'api-calls', 0.5::float8), ('STORAGE', 'Storage', 'storage-gb', 2),
                  ('EXPORTS', 'Exports', 'exports', NULL)) f(c, n, m, v)`,
    [tenantId],
  );
  await client.query(
    `INSERT INTO "MonitoredAsset" (id, "tenantId", "ownerKind", "ownerId", "entitlementId", "ownerStatus", "metricName",
       name, "metricType", "updatedAt")
     SELECT gen_random_uuid(), e."tenantId", 'Entitlement', e.id, e.id, 'Published', m.name, m.name, m.type, now()
     FROM (SELECT e.*, row_number() OVER () AS n FROM "Entitlement" e
           WHERE e."tenantId" = $1::uuid AND e.status = 'Published') e
     CROSS JOIN (VALUES ('api-calls', 'CumulativeCounter', 1), ('storage-gb', 'Gauge', 4), ('exports', 'CumulativeCounter', 10))
       m(name, type, every)
     WHERE e.n % m.every = 0`,
    [tenantId],
  );
  await client.query(
    `INSERT INTO "ConsumeEntry" ("tenantId", id, "entitlementId", "sessionId", "monitoredAssetId", "metricName", amount,
       "periodKey", "usageAfter", severity, "createdAt")
     SELECT a."tenantId", gen_random_uuid(), a."entitlementId", gen_random_uuid(), a.id, a."metricName", 1 + k * 3,
       'lifetime', 0, 'None', now() - ((hashtext(a.id::text) & 1023) % 365 + k * 17) % 365 * interval '1 day'
     FROM "MonitoredAsset" a CROSS JOIN generate_series(1, 2) k
     WHERE a."tenantId" = $1::uuid AND a."ownerKind" = 'Entitlement' AND a."metricName" <> 'storage-gb'
       AND (a."metricName" = 'api-calls' OR k = 1)`,
    [tenantId],
  );
  await client.query(
    `INSERT INTO "UsageRecord" ("tenantId", "entitlementId", "transactionId", "apiVersion", "creationDateTime",
       "eventName", "eventData", status, "monitoredAssetId", "metricName", amount, "periodKey", "receivedAt")
     SELECT a."tenantId", a."entitlementId", row_number() OVER (), 1, t, a."metricName", '{}', 'Counted', a.id,
       a."metricName", 5 + k, 'lifetime', t
     FROM "MonitoredAsset" a CROSS JOIN generate_series(1, 2) k
     CROSS JOIN LATERAL (SELECT now() - ((hashtext(a.id::text) & 1023) % 300 + k * 29) % 365 * interval '1 day' AS t) at
     WHERE a."tenantId" = $1::uuid AND a."ownerKind" = 'Entitlement' AND a."metricName" <> 'exports'
       AND (a."metricName" = 'api-calls' OR k = 1)`,
    [tenantId],
  );
}

function summarizePlan(plan: { Plan: Record<string, unknown>; "Execution Time": number }): PlanSummary {
  const scans: Scan[] = [];
  const walk = (node: Record<string, unknown>) => {
    const type = node["Node Type"] as string;
    if (/Scan/.test(type) && node["Relation Name"])
      scans.push({
        node: type,
        relation: node["Relation Name"] as string,
        ...(node["Index Name"] ? { index: node["Index Name"] as string } : {}),
        rows: node["Actual Rows"] as number,
      });
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk(plan.Plan);
  return { executionMs: Math.round(plan["Execution Time"]), scans };
}

async function timed(runs: number, fn: () => Promise<void>): Promise<Timing> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  return {
    runs,
    minMs: Math.round(ms[0]),
    medianMs: Math.round(ms[Math.floor(ms.length / 2)]),
    maxMs: Math.round(ms[ms.length - 1]),
  };
}

export async function runReportsBench(
  options: { entitlements?: number; log?: (line: string) => void } = {},
): Promise<ReportsBenchResult> {
  const count = options.entitlements ?? Number(process.env.BENCH_REPORT_ENTITLEMENTS ?? 100_000);
  const noise = Math.floor(count / 2);
  const log = options.log ?? ((line: string) => process.stderr.write(`[bench:reports] ${line}\n`));

  log("starting the production server on a fresh database");
  const server = await startTestServer();
  process.env.APP_SECRET = TEST_APP_SECRET;
  const db = createDb(server.databaseUrl, { max: 2 });
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    const tenant = await createTenant(db, { name: "Bench reports" });
    const other = await createTenant(db, { name: "Bench reports noise" });
    const small = await createTenant(db, { name: "Bench reports small" });
    log(`seeding ${count} entitlements (and ${noise} in a noise tenant)`);
    const catalog = await seedRevenueData(db, tenant.tenantId);
    const otherCatalog = await seedRevenueData(db, other.tenantId);
    await seedRevenueData(db, small.tenantId);
    const ids = (c: typeof catalog) => ({ absolute: c.planSets.absolute.id, relative: c.planSets.relative.id });
    await seedTenant(client, tenant.tenantId, count, ids(catalog));
    await seedTenant(client, other.tenantId, noise, ids(otherCatalog));
    await seedUsage(client, tenant.tenantId);
    await seedUsage(client, other.tenantId);
    await client.query("VACUUM ANALYZE");
    const sessions = Number(
      (await client.query(`SELECT count(*) AS n FROM "LicenseSession" WHERE "tenantId" = $1`, [tenant.tenantId]))
        .rows[0].n,
    );
    const countOf = async (table: string) =>
      Number(
        (await client.query(`SELECT count(*) AS n FROM "${table}" WHERE "tenantId" = $1`, [tenant.tenantId])).rows[0]
          .n,
      );
    const consumeEntries = await countOf("ConsumeEntry");
    const usageRecords = await countOf("UsageRecord");

    const { client: oauth, clientSecret } = await createClient(systemContext(db, tenant.tenantId, "bench"), {
      name: "bench",
      kind: "admin",
      scopes: ["provision.report.read"],
    });
    const tokenRes = await fetch(`${server.baseUrl}/auth/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: oauth.clientId,
        client_secret: clientSecret,
        scope: "provision.report.read",
      }),
    });
    const token = ((await tokenRes.json()) as { access_token: string }).access_token;
    const get = async (path: string) => {
      const res = await fetch(`${server.baseUrl}${REPORTS}/${path}`, { headers: { authorization: `Bearer ${token}` } });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res;
    };

    const now = new Date();
    const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    const from = new Date(Date.UTC(to.getUTCFullYear() - 1, to.getUTCMonth(), 1));
    const period = `from=${from.toISOString().slice(0, 10)}&to=${to.toISOString().slice(0, 10)}`;
    const queries = {
      revenue: `revenue?${period}`,
      seatUtilizationWeekly: `seat-utilization?${period}&interval=week`,
      activationsDaily: `activations?${period}&interval=day`,
      valueDeliveredWeekly: `value-delivered?${period}&interval=week`,
    };
    const json: Record<string, Timing> = {};
    for (const [name, path] of Object.entries(queries)) {
      log(`JSON ${name}`);
      await get(path); // warm the route
      json[name] = await timed(RUNS, async () => {
        await (await get(path)).json();
      });
      log(`${name}: ${JSON.stringify(json[name])}`);
    }
    const csv: ReportsBenchResult["csv"] = {};
    for (const name of ["revenue", "seat-utilization", "activations", "value-delivered"]) {
      log(`CSV ${name}`);
      let rows = 0;
      let bytes = 0;
      const timing = await timed(3, async () => {
        const res = await get(`${name}/csv?${period}`);
        const text = await res.text();
        bytes = Buffer.byteLength(text);
        rows = text.split("\r\n").length - 2;
      });
      csv[name] = { ...timing, rows, bytes };
      log(`${name} CSV: ${JSON.stringify(csv[name])}`);
    }

    log("plans of the report statements (EXPLAIN ANALYZE, with the reports' work_mem)");
    const weeks = bucketBounds(periodBuckets({ from, to }, "week"));
    const days = bucketBounds(periodBuckets({ from, to }, "day"));
    const explainAll = async (tenantId: string) => {
      const base = [tenantId, from, to];
      const series = [...base, null, null];
      const statements: Record<string, [string, unknown[]]> = {
        revenueByPlan: [REVENUE_BY_PLAN_SQL, base],
        revenueLines: [REVENUE_LINES_SQL, base],
        seatsInUseByBucket: [SEATS_IN_USE_BY_BUCKET_SQL, [...series, weeks]],
        seatCapacityByBucket: [SEAT_CAPACITY_BY_BUCKET_SQL, [...series, weeks]],
        seatUtilizationByEntitlement: [SEAT_UTILIZATION_BY_ENTITLEMENT_SQL, [...series, 10]],
        activationsByBucket: [ACTIVATIONS_BY_BUCKET_SQL, [...series, days]],
        valueByFeature: [VALUE_BY_FEATURE_SQL, [...series, weeks]],
      };
      const plans: Record<string, PlanSummary> = {};
      for (const [name, [text, values]] of Object.entries(statements)) {
        await client.query("BEGIN READ ONLY");
        await client.query(REPORT_WORK_MEM);
        const res = await client.query({ text: `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, values });
        await client.query("COMMIT");
        plans[name] = summarizePlan((res.rows[0]["QUERY PLAN"] as [never])[0]);
        log(`${name}: ${JSON.stringify(plans[name])}`);
      }
      return plans;
    };
    const plans = await explainAll(tenant.tenantId);
    log("the same statements for a tenant of a dozen licenses");
    const plansSmallTenant = await explainAll(small.tenantId);
    return {
      scenario: "reports",
      entitlements: count,
      sessions,
      consumeEntries,
      usageRecords,
      noiseTenantEntitlements: noise,
      json,
      csv,
      plans,
      plansSmallTenant,
    };
  } finally {
    await client.end();
    await db.$disconnect();
    await server.stop();
  }
}
