// `npm run bench -- scale`: the runtime and metering scenarios on a production-sized data set
// beside the same scenarios on an empty database, and each hot path's ratio (data set / empty;
// target: within 15 %). The data set lives in its own database (BENCH_SCALE_DATABASE_URL, or
// `lic_bench_scale` on the test PostgreSQL) that is kept between runs: it is migrated and seeded
// (scripts/seed/scale.ts) only when missing or smaller than asked. Sizes: BENCH_SCALE_ENTITLEMENTS
// (1,000,000), BENCH_SCALE_SESSIONS (5,000,000), BENCH_SCALE_USAGE_RECORDS (20,000,000),
// BENCH_SCALE_CUSTOMERS (200,000).
import { loadavg } from "node:os";
import pg from "pg";
import { createDb } from "../../server/db/client.ts";
import { migrate } from "../../server/db/migrate.ts";
import { createTenant } from "../../server/domain/cross-tenant.ts";
import { TEST_APP_SECRET, testPostgres } from "../../tests/helpers/test-server.ts";
import { SCALE_REFERENCE, scaleSeed, type ScaleSeedSize, type ScaleSeedStep } from "../seed/scale.ts";
import { runMeteringBench, type MeteringBenchResult } from "./metering.ts";
import { runRuntimeBench, type RuntimeBenchResult } from "./runtime.ts";

const SCALE_TENANT = "Bench scale";
const WITHIN = 0.15;

type PathFigures = { requestsPerSecond: number; p99Ms: number };
export type ScaleRow = { path: string; empty: PathFigures; scale: PathFigures; ratio: number; within15: boolean };
export type ScaleBenchResult = {
  scenario: "scale";
  size: ScaleSeedSize;
  /** Rows in the data set's tables when measured. */
  rows: Record<string, number>;
  /** The seeding's steps when this run seeded (empty when the data set was reused). */
  seeded: ScaleSeedStep[];
  table: ScaleRow[];
  loadAverage: { before: number[]; after: number[] };
  empty: { runtime: RuntimeBenchResult; metering: MeteringBenchResult };
  scale: { runtime: RuntimeBenchResult; metering: MeteringBenchResult };
};

const sizeFromEnv = (): ScaleSeedSize => ({
  entitlements: Number(process.env.BENCH_SCALE_ENTITLEMENTS ?? 1_000_000),
  sessions: Number(process.env.BENCH_SCALE_SESSIONS ?? 5_000_000),
  usageRecords: Number(process.env.BENCH_SCALE_USAGE_RECORDS ?? 20_000_000),
  customers: Number(process.env.BENCH_SCALE_CUSTOMERS ?? 200_000),
});

/** The kept data set's database: created and migrated when missing. */
async function scaleDatabase(log: (line: string) => void): Promise<string> {
  if (process.env.BENCH_SCALE_DATABASE_URL) {
    await migrate(process.env.BENCH_SCALE_DATABASE_URL);
    return process.env.BENCH_SCALE_DATABASE_URL;
  }
  const { adminUrl } = await testPostgres();
  const url = new URL(adminUrl);
  url.pathname = "/lic_bench_scale";
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'lic_bench_scale'`);
    if (!exists.rowCount) {
      log("creating the database lic_bench_scale");
      await admin.query(`CREATE DATABASE lic_bench_scale`);
    }
  } finally {
    await admin.end();
  }
  await migrate(url.toString());
  return url.toString();
}

/** Rows of the tables the data set fills, for the tenant (estimates are not enough to decide reuse). */
async function tableRows(databaseUrl: string, tenantId: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rows: Record<string, number> = {};
    for (const table of ["CustomerUser", "Entitlement", "ActivationCode", "Device", "LicenseSession", "BalanceHistoryEntry", "UsageRecord", "MeterPeriod"]) {
      rows[table] = (await client.query(`SELECT count(*)::int AS n FROM "${table}" WHERE "tenantId" = $1::uuid`, [tenantId])).rows[0].n as number;
    }
    // Usage records the worker moved to the archive are still the data set's (docs/decisions.md "Ledger partitions").
    rows.UsageRecord += (await client.query(`SELECT count(*)::int AS n FROM "UsageRecordArchive" WHERE "tenantId" = $1::uuid`, [tenantId])).rows[0].n as number;
    return rows;
  } finally {
    await client.end();
  }
}

/** The kept data set: its database, tenant and row counts; seeded first when missing or smaller than asked. */
export async function ensureScaleDataSet(log: (line: string) => void) {
  const size = sizeFromEnv();
  process.env.APP_SECRET = TEST_APP_SECRET;
  const databaseUrl = await scaleDatabase(log);
  const db = createDb(databaseUrl, { max: 2 });
  let tenantId: string;
  try {
    const found = await db.tenant.findFirst({ where: { name: SCALE_TENANT }, select: { id: true } });
    tenantId = found?.id ?? (await createTenant(db, { name: SCALE_TENANT })).tenantId;
  } finally {
    await db.$disconnect();
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const seededLicenses = (
    await client.query(`SELECT count(*)::int AS n FROM "Entitlement" WHERE "tenantId" = $1::uuid AND reference = $2`, [tenantId, SCALE_REFERENCE])
  ).rows[0].n as number;
  await client.end();
  let seeded: ScaleSeedStep[] = [];
  if (seededLicenses < size.entitlements) {
    log(`seeding ${JSON.stringify(size)} into tenant ${tenantId} (found ${seededLicenses} licenses)`);
    seeded = await scaleSeed(databaseUrl, tenantId, size, log);
  } else {
    log(`reusing the data set of tenant ${tenantId} (${seededLicenses} licenses)`);
  }
  const rows = await tableRows(databaseUrl, tenantId);
  log(`rows: ${JSON.stringify(rows)}`);
  // The seeding's gigabytes of dirty pages are written now, not by a checkpoint during the
  // measurements (its writes made each commit wait on the disk: 43 ms per activation's COMMIT).
  const checkpoint = new pg.Client({ connectionString: databaseUrl });
  await checkpoint.connect();
  await checkpoint.query("CHECKPOINT").finally(() => checkpoint.end());
  return { databaseUrl, tenantId, size, seeded, rows };
}

export async function runScaleBench(options: { log?: (line: string) => void } = {}): Promise<ScaleBenchResult> {
  const log = options.log ?? ((line: string) => process.stderr.write(`[bench:scale] ${line}\n`));
  const loadBefore = loadavg();
  const { databaseUrl, tenantId, size, seeded, rows } = await ensureScaleDataSet(log);

  log("runtime, empty database");
  const emptyRuntime = await runRuntimeBench({ log: (l) => log(`empty runtime: ${l}`) });
  log("runtime, data set");
  const scaleRuntime = await runRuntimeBench({ databaseUrl, tenantId, log: (l) => log(`scale runtime: ${l}`) });
  // Printed now: a failure in the metering part must not lose the runtime figures.
  log(`runtime, data set / empty: ${JSON.stringify({
    activation: [emptyRuntime.activation.requestsPerSecond, scaleRuntime.activation.requestsPerSecond],
    activationSpread: [emptyRuntime.activationAcrossEntitlements.requestsPerSecond, scaleRuntime.activationAcrossEntitlements.requestsPerSecond],
    renew: [emptyRuntime.renew.requestsPerSecond, scaleRuntime.renew.requestsPerSecond],
    checkIn: [emptyRuntime.checkIn.requestsPerSecond, scaleRuntime.checkIn.requestsPerSecond],
    adminList: [emptyRuntime.adminList.requestsPerSecond, scaleRuntime.adminList.requestsPerSecond],
  })}`);
  log("metering, empty database");
  const emptyMetering = await runMeteringBench({ log: (l) => log(`empty metering: ${l}`) });
  log("metering, data set");
  const scaleMetering = await runMeteringBench({ databaseUrl, tenantId, log: (l) => log(`scale metering: ${l}`) });

  const figures = (r: { requestsPerSecond: number; latencyMs: { p99: number } }): PathFigures => ({ requestsPerSecond: r.requestsPerSecond, p99Ms: r.latencyMs.p99 });
  const row = (path: string, empty: PathFigures, scale: PathFigures): ScaleRow => {
    const ratio = Math.round((scale.requestsPerSecond / Math.max(1, empty.requestsPerSecond)) * 100) / 100;
    return { path, empty, scale, ratio, within15: ratio >= 1 - WITHIN };
  };
  const table = [
    row("activation, one license", figures(emptyRuntime.activation), figures(scaleRuntime.activation)),
    row("activation, spread over 16", figures(emptyRuntime.activationAcrossEntitlements), figures(scaleRuntime.activationAcrossEntitlements)),
    row("renew", figures(emptyRuntime.renew), figures(scaleRuntime.renew)),
    row("check-in", figures(emptyRuntime.checkIn), figures(scaleRuntime.checkIn)),
    row("admin list (REST, page of 20)", figures(emptyRuntime.adminList), figures(scaleRuntime.adminList)),
    row("consume, one license", figures(emptyMetering.consumeOneLicense), figures(scaleMetering.consumeOneLicense)),
    row("consume, spread over 16", figures(emptyMetering.consumeSpread), figures(scaleMetering.consumeSpread)),
    row("usage upload, batches of 100", figures(emptyMetering.usageUpload), figures(scaleMetering.usageUpload)),
  ];
  const out = [
    "",
    `| hot path | empty req/s (p99 ms) | data set req/s (p99 ms) | data set / empty | within 15 % |`,
    `|---|---|---|---|---|`,
    ...table.map((r) => `| ${r.path} | ${r.empty.requestsPerSecond} (${r.empty.p99Ms}) | ${r.scale.requestsPerSecond} (${r.scale.p99Ms}) | ${r.ratio} | ${r.within15 ? "yes" : "NO"} |`),
    "",
  ];
  process.stdout.write(`${out.join("\n")}\n`);
  return {
    scenario: "scale",
    size,
    rows,
    seeded,
    table,
    loadAverage: { before: loadBefore, after: loadavg() },
    empty: { runtime: emptyRuntime, metering: emptyMetering },
    scale: { runtime: scaleRuntime, metering: scaleMetering },
  };
}
