import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testPostgres } from "../../helpers/test-server.ts";
import { migrate } from "../../../server/db/migrate.ts";
import { createDb } from "../../../server/db/client.ts";
import { createTenant } from "../../../server/domain/cross-tenant.ts";
import {
  ACTIVATIONS_PER_DAY_SQL,
  ACTIVE_SESSIONS_SQL,
  CREDIT_BURN_SQL,
  DEAD_LETTERS_SQL,
  EXPIRING_SQL,
  REFUSALS_SQL,
  SEATS_IN_FORCE_SQL,
  TRIALS_SQL,
  USAGE_SQL,
  WEBHOOKS_SQL,
} from "../../../server/domain/operations/dashboard.ts";

/**
 * The dashboard on a tenant with a million sessions (docs/performance.md "Dashboard"): two years
 * of activations on 2,000 licenses, 2% of them holding a seat now, beside a small second tenant.
 * Every dashboard statement is planned on the real tables after ANALYZE, and none may read
 * LicenseSession (or any table the tenant shares) with a sequential scan. The seed runs in SQL
 * (generate_series) on a database of its own, dropped afterwards.
 */
const SESSIONS = Number(process.env.DASHBOARD_PLAN_SESSIONS ?? 1_000_000);
const LICENSES = 2_000;
const DEVICES = 100_000;

let database: { url: string; drop: () => Promise<void> };
let client: pg.Client;
let tenantId: string;
const seedSeconds: Record<string, number> = {};

beforeAll(async () => {
  const server = await testPostgres();
  database = await createTestDatabase(server.adminUrl, "lic_plan");
  await migrate(database.url);
  const db = createDb(database.url, { max: 1 });
  try {
    tenantId = (await createTenant(db, { name: "Million Sessions" })).tenantId;
    await createTenant(db, { name: "Small Neighbour" });
  } finally {
    await db.$disconnect();
  }
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const timed = async (name: string, sql: string, values: unknown[]) => {
    const started = performance.now();
    await client.query(sql, values);
    seedSeconds[name] = Math.round(performance.now() - started) / 1000;
  };
  await timed(
    "entitlements",
    `INSERT INTO "Entitlement" (id, "tenantId", name, status, features, "activationPolicy", "keyIssuancePolicy",
       "claimBasedActivation", "expirationDateTime", "isEntitlementTrial", "updatedAt")
     SELECT gen_random_uuid(), $1::uuid, 'License ' || i, CASE WHEN i % 10 = 0 THEN 'Archived' ELSE 'Published' END,
       '[]', '{}', '{}', jsonb_build_object('numberOfSeats', 1 + i % 20),
       now() + (i % 400 - 30) * interval '1 day', i % 7 = 0, now()
     FROM generate_series(1, $2::int) i`,
    [tenantId, LICENSES],
  );
  await timed(
    "devices",
    `WITH e AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM "Entitlement" WHERE "tenantId" = $1::uuid)
     INSERT INTO "Device" (id, "tenantId", "entitlementId", "fingerprintHash", "deviceName", "updatedAt")
     SELECT gen_random_uuid(), $1::uuid, e.id, md5(i::text) || md5((i + 1)::text), 'Device ' || i, now()
     FROM generate_series(0, $2::int - 1) i JOIN e ON e.n = i % $3::int`,
    [tenantId, DEVICES, LICENSES],
  );
  // Sessions: activated over two years; those of the last day hold a seat. Foreign-key triggers
  // are skipped for the bulk insert (the join above makes every device and license real).
  await client.query("SET session_replication_role = replica");
  await timed(
    "sessions",
    `WITH d AS (SELECT id, "entitlementId", row_number() OVER (ORDER BY id) - 1 AS n FROM "Device" WHERE "tenantId" = $1::uuid),
     s AS (SELECT i, now() - (i::float8 / $2::int) * interval '730 days' AS at FROM generate_series(0, $2::int - 1) i)
     INSERT INTO "LicenseSession" (id, "tenantId", "entitlementId", "deviceId", "activatedAt", "leaseExpiresAt",
       "graceExpiresAt", "seatHeldUntil", "revokedAt", "revocationReason", "updatedAt")
     SELECT gen_random_uuid(), $1::uuid, d."entitlementId", d.id, s.at, s.at + interval '1 hour',
       s.at + interval '25 hours', s.at + interval '1 day',
       CASE WHEN s.i % 3 = 0 AND s.at < now() - interval '1 day' THEN s.at + interval '2 hours' END,
       CASE WHEN s.i % 3 = 0 AND s.at < now() - interval '1 day' THEN 'Released' ELSE 'None' END, s.at
     FROM s JOIN d ON d.n = s.i % $3::int`,
    [tenantId, SESSIONS, DEVICES],
  );
  await client.query("SET session_replication_role = DEFAULT");
  await timed("analyze", "ANALYZE", []);
}, 600_000);

afterAll(async () => {
  await client?.end();
  await database?.drop();
});

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: PlanNode[] };
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

async function plan(sql: string, third: unknown) {
  const values = third === undefined ? [tenantId, new Date()] : [tenantId, new Date(), third];
  const explained = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode; "Execution Time": number }] }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
    values,
  );
  const [root] = explained.rows[0]["QUERY PLAN"];
  return { all: nodes(root.Plan), ms: root["Execution Time"] };
}

const DAY = 86_400_000;
const statements: [string, string, unknown][] = [
  ["active sessions", ACTIVE_SESSIONS_SQL, undefined],
  ["activations per day", ACTIVATIONS_PER_DAY_SQL, new Date(Date.now() - 30 * DAY)],
  ["seats in force", SEATS_IN_FORCE_SQL, undefined],
  ["expiring", EXPIRING_SQL, new Date(Date.now() + 30 * DAY)],
  ["trials", TRIALS_SQL, undefined],
  ["usage", USAGE_SQL, undefined],
  ["credit burn", CREDIT_BURN_SQL, new Date(Date.now() - 30 * DAY)],
  ["webhooks", WEBHOOKS_SQL, new Date(Date.now() - 7 * DAY)],
  ["dead letters", DEAD_LETTERS_SQL, undefined],
  ["refusals", REFUSALS_SQL, new Date(Date.now() - 7 * DAY).toISOString().slice(0, 10)],
];

describe(`dashboard statements on ${SESSIONS.toLocaleString("en")} sessions`, () => {
  it("no statement reads LicenseSession with a sequential scan; the session figures come from its indexes", async () => {
    const report: string[] = [];
    for (const [name, sql, third] of statements) {
      const { all, ms } = await plan(sql, third);
      const seq = all.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"]);
      report.push(
        `${name}: ${ms.toFixed(1)} ms; ${all.map((n) => n["Index Name"] ?? n["Node Type"]).join(" > ")}`,
      );
      expect(seq, `${name} plan: ${JSON.stringify(all.map((n) => n["Node Type"]))}`).not.toContain(
        "LicenseSession",
      );
      if (sql.includes('FROM "LicenseSession"'))
        expect(
          all.some((n) => (n["Index Name"] ?? "").startsWith("LicenseSession_tenantId_")),
          `${name} reads a LicenseSession index`,
        ).toBe(true);
    }
    const [{ n }] = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "LicenseSession"`))
      .rows;
    expect(n).toBe(SESSIONS);
    console.log(`seed (s): ${JSON.stringify(seedSeconds)}\n${report.join("\n")}`);
  }, 120_000);
});
