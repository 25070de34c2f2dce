import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../../server/db/migrate.ts";
import { maintainLedgerPartitions } from "../../../server/domain/operations/ledger-partitions.ts";
import { listMonthPartitions } from "../../../server/db/month-partitions.ts";
import { createDb, type Db } from "../../../server/db/client.ts";
import { archiveUsageRecords } from "../../../server/domain/metering/usage/archive-usage-records.ts";
import { CREDIT_BURN_SQL } from "../../../server/domain/operations/dashboard.ts";
import { VALUE_BY_FEATURE_SQL } from "../../../server/domain/reports/value-delivered.ts";
import { SEAT_UTILIZATION_REPORT_SQL } from "../../../server/domain/reports/seat-utilization.ts";
import { createTestDatabase, testPostgres } from "../../helpers/test-server.ts";

/**
 * The ledgers' partition maintenance (docs/operations.md "Data at scale: retention, partitions and
 * autovacuum"), run as the worker runs it at chosen instants, on a database of its own (partitions
 * past retention are dropped, which the shared test database's other files must not see).
 */
describe("ledger partitions: created ahead, dropped past retention, pruned by the hot statements", () => {
  let client: pg.Client;
  /** The worker's way in (the Prisma client), for the maintenance itself. */
  let db: Db;
  let cleanup: () => Promise<void>;
  const tenantId = randomUUID();

  const names = async (table: string) => (await listMonthPartitions(db, table)).map((p) => p.name);
  const consumeAt = (createdAt: string) =>
    client.query(
      `INSERT INTO "ConsumeEntry" ("tenantId", id, "entitlementId", "sessionId", "monitoredAssetId", "metricName",
         amount, "periodKey", "usageAfter", severity, "createdAt")
       VALUES ($1, gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'm', 1, 'p', 1, 'None', $2)`,
      [tenantId, createdAt],
    );
  const historyAt = (createdAt: string) =>
    client.query(
      `INSERT INTO "BalanceHistoryEntry" (id, "tenantId", "balanceUsageId", "entitlementId", "metricName", operation,
         amount, "totalCreditsAfter", "creditsUsedAfter", "actorKind", "actorId", "createdAt")
       VALUES (gen_random_uuid(), $1, gen_random_uuid(), gen_random_uuid(), 'm', 'Consume', 1, 1, 1, 'system', 'test', $2)`,
      [tenantId, createdAt],
    );
  const usageRecord = (transactionId: number, creationDateTime: string, receivedAt: string) =>
    client.query(
      `INSERT INTO "UsageRecord" ("tenantId", "entitlementId", "transactionId", "apiVersion", "creationDateTime",
         "eventName", "eventData", status, "receivedAt")
       VALUES ($1, $1, $2, 1, $3, 'e', '{}', 'Counted', $4)`,
      [tenantId, transactionId, creationDateTime, receivedAt],
    );
  /** Every table a statement's plan reads (partitions by their own name). */
  const relationsRead = async (sql: string, values: unknown[]) => {
    const { rows } = await client.query<{ "QUERY PLAN": unknown[] }>(`EXPLAIN (FORMAT JSON) ${sql}`, values);
    const found = new Set<string>();
    const walk = (node: Record<string, unknown>) => {
      if (typeof node["Relation Name"] === "string") found.add(node["Relation Name"]);
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    walk((rows[0]["QUERY PLAN"][0] as { Plan: Record<string, unknown> }).Plan);
    return [...found].sort();
  };

  beforeAll(async () => {
    const server = await testPostgres();
    const database = await createTestDatabase(server.adminUrl, "lic_partitions");
    client = new pg.Client({ connectionString: database.url });
    db = createDb(database.url, { max: 2 });
    // Set before anything can fail, so a failed setup still drops its database.
    cleanup = async () => {
      await db.$disconnect();
      await client.end().catch(() => undefined);
      await database.drop();
      await server.stop();
    };
    await migrate(database.url);
    await client.connect();
    await client.query(
      `INSERT INTO "Tenant" (id, name, slug, "updatedAt") VALUES ($1::uuid, 'Partitions', $1::text, now())`,
      [tenantId],
    );
  });

  afterAll(async () => cleanup?.());

  it("creates the current month and three ahead, then detaches and drops what is past retention, rows and all", async () => {
    // Far from the migration's months, so the expectations do not depend on the day the test runs.
    const first = await maintainLedgerPartitions(db, new Date("2030-01-15T08:00:00Z"), {
      monthsAhead: 3,
      retentionMonths: 120,
    });
    expect(first).toEqual({
      created: [
        "ConsumeEntry_p2030_01",
        "ConsumeEntry_p2030_02",
        "ConsumeEntry_p2030_03",
        "ConsumeEntry_p2030_04",
        "BalanceHistoryEntry_p2030_01",
        "BalanceHistoryEntry_p2030_02",
        "BalanceHistoryEntry_p2030_03",
        "BalanceHistoryEntry_p2030_04",
      ],
      dropped: [],
    });
    // A second pass at the same instant has nothing to do.
    expect(
      await maintainLedgerPartitions(db, new Date("2030-01-20T00:00:00Z"), {
        monthsAhead: 3,
        retentionMonths: 120,
      }),
    ).toEqual({ created: [], dropped: [] });

    for (const at of ["2030-01-31T23:59:59.999Z", "2030-02-01T00:00:00Z", "2030-02-14T12:00:00Z"]) {
      await consumeAt(at);
      await historyAt(at);
    }
    const rowsOf = async (table: string) =>
      (
        await client.query<{ p: string; n: number }>(
          `SELECT tableoid::regclass::text AS p, count(*)::int AS n FROM "${table}" GROUP BY 1 ORDER BY 1`,
        )
      ).rows;
    expect(await rowsOf("ConsumeEntry")).toEqual([
      { p: `"ConsumeEntry_p2030_01"`, n: 1 },
      { p: `"ConsumeEntry_p2030_02"`, n: 2 },
    ]);

    // 25 months kept at 2032-03-10: everything before February 2030 goes (the migration's legacy
    // partition and months included); February 2030 stays.
    const later = await maintainLedgerPartitions(db, new Date("2032-03-10T00:00:00Z"), {
      monthsAhead: 3,
      retentionMonths: 25,
    });
    expect(later.created).toEqual([
      "ConsumeEntry_p2032_03",
      "ConsumeEntry_p2032_04",
      "ConsumeEntry_p2032_05",
      "ConsumeEntry_p2032_06",
      "BalanceHistoryEntry_p2032_03",
      "BalanceHistoryEntry_p2032_04",
      "BalanceHistoryEntry_p2032_05",
      "BalanceHistoryEntry_p2032_06",
    ]);
    expect(later.dropped).toContain("ConsumeEntry_legacy");
    expect(later.dropped).toContain("ConsumeEntry_p2030_01");
    expect(later.dropped).toContain("BalanceHistoryEntry_legacy");
    expect(later.dropped).toContain("BalanceHistoryEntry_p2030_01");
    expect(await names("ConsumeEntry")).toEqual([
      "ConsumeEntry_p2030_02",
      "ConsumeEntry_p2030_03",
      "ConsumeEntry_p2030_04",
      "ConsumeEntry_p2032_03",
      "ConsumeEntry_p2032_04",
      "ConsumeEntry_p2032_05",
      "ConsumeEntry_p2032_06",
    ]);
    expect(await names("BalanceHistoryEntry")).toEqual([
      "BalanceHistoryEntry_p2030_02",
      "BalanceHistoryEntry_p2030_03",
      "BalanceHistoryEntry_p2030_04",
      "BalanceHistoryEntry_p2032_03",
      "BalanceHistoryEntry_p2032_04",
      "BalanceHistoryEntry_p2032_05",
      "BalanceHistoryEntry_p2032_06",
    ]);
    // Dropped, not left detached: no table of that name remains.
    const { rows: leftovers } = await client.query(
      `SELECT relname FROM pg_class WHERE relname IN ('ConsumeEntry_p2030_01', 'ConsumeEntry_legacy', 'BalanceHistoryEntry_p2030_01')`,
    );
    expect(leftovers).toEqual([]);
    expect(await rowsOf("ConsumeEntry")).toEqual([{ p: `"ConsumeEntry_p2030_02"`, n: 2 }]);
    expect(await rowsOf("BalanceHistoryEntry")).toEqual([{ p: `"BalanceHistoryEntry_p2030_02"`, n: 2 }]);
    // The ledger's order survives its first partition: the sequence was moved to the new table.
    const { rows: seq } = await client.query(
      `SELECT count(DISTINCT seq)::int AS n FROM "BalanceHistoryEntry"`,
    );
    expect(seq).toEqual([{ n: 2 }]);
  });

  it("moves usage records that can no longer count to the archive's month, and drops archive months past retention", async () => {
    await usageRecord(1, "2030-01-04T10:00:00Z", "2030-01-05T10:00:00Z");
    await usageRecord(2, "2030-01-04T11:00:00Z", "2030-01-05T11:00:00Z");
    await usageRecord(3, "2029-12-30T00:00:00Z", "2030-01-31T23:00:00Z");
    // Received long ago but stamped ahead: it could still count, so it stays.
    await usageRecord(4, "2030-05-01T00:00:00Z", "2030-01-10T00:00:00Z");
    // Received within USAGE_LIVE_DAYS (100) of the run.
    await usageRecord(5, "2030-04-19T00:00:00Z", "2030-04-20T00:00:00Z");

    const at = new Date("2030-06-01T00:00:00Z");
    expect(await archiveUsageRecords(db, at, { batchSize: 2 })).toEqual({
      moved: 3,
      batches: 2,
      partitionsCreated: ["UsageRecordArchive_p2030_01"],
    });
    const ids = async (table: string) =>
      (
        await client.query<{ t: string }>(
          `SELECT "transactionId"::text AS t FROM "${table}" WHERE "tenantId" = $1 ORDER BY 1`,
          [tenantId],
        )
      ).rows.map((r) => r.t);
    expect(await ids("UsageRecord")).toEqual(["4", "5"]);
    expect(await ids("UsageRecordArchive")).toEqual(["1", "2", "3"]);

    const dropped = await maintainLedgerPartitions(db, new Date("2032-03-10T00:00:00Z"), {
      monthsAhead: 3,
      retentionMonths: 25,
    });
    expect(dropped).toEqual({ created: [], dropped: ["UsageRecordArchive_p2030_01"] });
    expect(await ids("UsageRecordArchive")).toEqual([]);
  });

  it("the dashboard's credit burn and the value report read only the months of their period", async () => {
    await maintainLedgerPartitions(db, new Date("2032-03-10T00:00:00Z"), {
      monthsAhead: 3,
      retentionMonths: 25,
    });
    await client.query("ANALYZE");
    // Credit burn of the 30 days before 2032-04-10: March and April 2032.
    expect(
      await relationsRead(CREDIT_BURN_SQL, [tenantId, "2032-04-10T00:00:00Z", "2032-03-11T00:00:00Z"]),
    ).toEqual(["BalanceHistoryEntry_p2032_03", "BalanceHistoryEntry_p2032_04"]);
    // The value report of May 2032: the consume ledger's May only (the archive's months are by
    // receipt, so all of them are read, each by its (tenantId, creationDateTime) index).
    const read = await relationsRead(VALUE_BY_FEATURE_SQL, [
      tenantId,
      "2032-05-01T00:00:00Z",
      "2032-06-01T00:00:00Z",
      null,
      null,
      ["2032-05-01T00:00:00Z", "2032-06-01T00:00:00Z"],
    ]);
    expect(read.filter((r) => r.startsWith("ConsumeEntry"))).toEqual(["ConsumeEntry_p2032_05"]);
  });

  it("the seat-utilisation report reads the sessions once (one statement for series and ranking)", async () => {
    const read = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${SEAT_UTILIZATION_REPORT_SQL}`, [
      tenantId,
      "2032-01-01T00:00:00Z",
      "2032-04-01T00:00:00Z",
      null,
      null,
      ["2032-01-01T00:00:00Z"],
      10,
    ]);
    const scans = read.rows.map((r) => r["QUERY PLAN"]).filter((line) => / on "LicenseSession"/.test(line));
    expect(scans).toHaveLength(1);
  });
});
