import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../../server/db/client.ts";
import { migrate } from "../../../server/db/migrate.ts";
import { ensureMonthPartition } from "../../../server/db/month-partitions.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { createTenant } from "../../../server/domain/cross-tenant.ts";
import { defaultKeyIssuancePolicy } from "../../../server/domain/entitlements/entitlement/key-issuance-policy.schemas.ts";
import { foldLedgerPartition } from "../../../server/domain/metering/ledger/fold-ledger-partition.ts";
import { rebuildMeteringCounters } from "../../../server/domain/metering/ledger/rebuild-counters.ts";
import { maintainLedgerPartitions } from "../../../server/domain/operations/ledger-partitions.ts";
import { createTestDatabase, testPostgres } from "../../helpers/test-server.ts";

/**
 * The counters stay "the ledger replayed" after the ledger's oldest months are dropped past
 * retention (docs/operations.md "Data at scale: retention, partitions and autovacuum"): the months
 * are folded into bases before the drop, and the rebuild starts from them. On a database of its
 * own, since the maintenance drops whole months. The history sits three years back, which no API
 * can write, so its rows are written here as the domain writes them (each balance entry with the
 * totals after it, in `seq` order).
 */
describe("ledger retention: the counters rebuild the same after old months are dropped", () => {
  let client: pg.Client;
  let db: Db;
  let cleanup: () => Promise<void>;
  let tenantId: string;
  let entitlementId: string;
  const asset = { sum: "", gauge: "", credits: "" };
  let balanceUsageId = "";

  const consume = (assetId: string, metricName: string, amount: number, createdAt: string) =>
    client.query(
      `INSERT INTO "ConsumeEntry" ("tenantId", id, "entitlementId", "sessionId", "monitoredAssetId", "metricName",
         amount, "periodKey", "usageAfter", severity, "creditsPriced", "creditsCharged", "createdAt")
       VALUES ($1, gen_random_uuid(), $2, gen_random_uuid(), $3, $4, $5, 'lifetime', 0, 'None', $5, 0, $6)`,
      [tenantId, entitlementId, assetId, metricName, amount, createdAt],
    );
  /** A counted record, archived in the month it was received (by default when it was made). */
  const archived = (
    assetId: string,
    metricName: string,
    transactionId: number,
    amount: number,
    at: string,
    receivedAt = at,
  ) =>
    client.query(
      `INSERT INTO "UsageRecordArchive" ("tenantId", "entitlementId", "transactionId", "apiVersion", "creationDateTime",
         "eventName", "eventData", status, "monitoredAssetId", "metricName", amount, "periodKey", "creditsPriced", "receivedAt")
       VALUES ($1, $2, $3, 1, $4, 'e', '{}', 'Counted', $5, $6, $7, 'lifetime', 1, $8)`,
      [tenantId, entitlementId, transactionId, at, assetId, metricName, amount, receivedAt],
    );
  const history = (
    operation: string,
    amount: number,
    after: { total: number; used: number },
    createdAt: string,
    unfunded = 0,
  ) =>
    client.query(
      `INSERT INTO "BalanceHistoryEntry" (id, "tenantId", "balanceUsageId", "entitlementId", "metricName", operation,
         amount, "totalCreditsAfter", "creditsUsedAfter", "unfundedAmount", "actorKind", "actorId", "createdAt")
       VALUES (gen_random_uuid(), $1, $2, $3, 'credits', $4, $5, $6, $7, $8, 'system', 'test', $9)`,
      [
        tenantId,
        balanceUsageId,
        entitlementId,
        operation,
        amount,
        after.total,
        after.used,
        unfunded,
        createdAt,
      ],
    );
  const rebuild = async () => {
    const { periods, balances } = await rebuildMeteringCounters(
      systemContext(db, tenantId, "test"),
      entitlementId,
    );
    const byAsset = Object.fromEntries(periods.map((p) => [p.monitoredAssetId, p]));
    return {
      sum: byAsset[asset.sum],
      gauge: byAsset[asset.gauge],
      credits: balances.find((b) => b.balanceUsageId === balanceUsageId),
      periods: periods.length,
    };
  };

  /** What the whole history replays to, written out. */
  const expected = {
    sum: {
      monitoredAssetId: "",
      periodKey: "lifetime",
      // consumes 5 + 7 (old) + 3; records 10 + 20 (old) + 4
      consumedUsage: "15.000000",
      reportedUsage: "34.000000",
      usage: "49.000000",
      consumeCount: 3,
      recordCount: 3,
      // each consume prices its amount, each record 1
      creditsPriced: "18.000000",
      creditsCharged: "0.000000",
    },
    gauge: {
      monitoredAssetId: "",
      periodKey: "lifetime",
      consumedUsage: "0.000000",
      // the latest record (2031-12-05) wins over the old ones (8, then 6)
      reportedUsage: "9.000000",
      usage: "9.000000",
      consumeCount: 0,
      recordCount: 3,
      creditsPriced: "3.000000",
      creditsCharged: "0.000000",
    },
    credits: {
      balanceUsageId: "",
      // Set 500, then 1 used; charges 30 + 20 (old) + 10 + 1; 5 of the old 20 unfunded
      totalCredits: "500.000000",
      creditsUsed: "1.000000",
      cumulativeCreditsUsed: "61.000000",
      unfundedCredits: "5.000000",
    },
    periods: 2,
  };

  beforeAll(async () => {
    const server = await testPostgres();
    const database = await createTestDatabase(server.adminUrl, "lic_retention");
    client = new pg.Client({ connectionString: database.url });
    db = createDb(database.url, { max: 2 });
    cleanup = async () => {
      await db.$disconnect();
      await client.end().catch(() => undefined);
      await database.drop();
      await server.stop();
    };
    await migrate(database.url);
    await client.connect();

    const tenant = await createTenant(db, { name: "Retention" });
    tenantId = tenant.tenantId;
    const scoped = tenantDb(db, tenantId);
    const entitlement = await scoped.entitlement.create({
      data: {
        tenantId,
        name: "Retained license",
        description: "",
        features: [],
        activationPolicy: {},
        claimBasedActivation: {
          leaseTime: "PT1H",
          gracePeriod: "P1D",
          numberOfSeats: 1,
          isFloatingLicense: false,
        },
        keyIssuancePolicy: defaultKeyIssuancePolicy(),
        productIds: [],
      },
    });
    entitlementId = entitlement.id;
    const monitored = (metricName: string, metricType: string) =>
      scoped.monitoredAsset.create({
        data: {
          tenantId,
          ownerKind: "Entitlement",
          ownerId: entitlementId,
          entitlementId,
          ownerStatus: "Published",
          metricName,
          name: metricName,
          metricType,
        },
      });
    asset.sum = (await monitored("api-calls", "Sum")).id;
    asset.gauge = (await monitored("open-projects", "Gauge")).id;
    asset.credits = (await monitored("credits", "Sum")).id;
    balanceUsageId = (
      await scoped.balanceUsage.create({
        data: {
          tenantId,
          monitoredAssetId: asset.credits,
          name: "credits",
          totalCredits: 500,
          creditsUsed: 1,
          initialCreditAmount: 100,
          usageQuota: [],
        },
      })
    ).id;
    expected.sum.monitoredAssetId = asset.sum;
    expected.gauge.monitoredAssetId = asset.gauge;
    expected.credits.balanceUsageId = balanceUsageId;

    for (const table of ["ConsumeEntry", "BalanceHistoryEntry", "UsageRecordArchive"])
      for (const month of ["2029-01-01T00:00:00Z", "2031-12-01T00:00:00Z"])
        await ensureMonthPartition(db, table, new Date(month));

    // January 2029: past retention at the maintenance below.
    await consume(asset.sum, "api-calls", 5, "2029-01-03T10:00:00Z");
    await consume(asset.sum, "api-calls", 7, "2029-01-04T10:00:00Z");
    await archived(asset.sum, "api-calls", 1, 10, "2029-01-05T10:00:00Z");
    await archived(asset.sum, "api-calls", 2, 20, "2029-01-06T10:00:00Z");
    await archived(asset.gauge, "open-projects", 11, 8, "2029-01-10T10:00:00Z");
    await archived(asset.gauge, "open-projects", 12, 6, "2029-01-20T10:00:00Z");
    await history("Deposit", 50, { total: 150, used: 0 }, "2029-01-02T10:00:00Z");
    await history("Consume", 30, { total: 150, used: 30 }, "2029-01-03T10:00:00Z");
    await history("UsageCharge", 20, { total: 150, used: 50 }, "2029-01-05T10:00:00Z", 5);
    // December 2031: kept.
    await consume(asset.sum, "api-calls", 3, "2031-12-03T10:00:00Z");
    await archived(asset.sum, "api-calls", 3, 4, "2031-12-04T10:00:00Z");
    await archived(asset.gauge, "open-projects", 13, 9, "2031-12-05T10:00:00Z");
    await history("Consume", 10, { total: 150, used: 60 }, "2031-12-02T10:00:00Z");
    await history("Set", 500, { total: 500, used: 0 }, "2031-12-03T10:00:00Z");
    await history("Consume", 1, { total: 500, used: 1 }, "2031-12-04T10:00:00Z");
  });

  afterAll(async () => cleanup?.());

  it("the whole ledger replays to the written-out counters", async () => {
    expect(await rebuild()).toEqual(expected);
  });

  it("maintenance folds the months past retention, drops them, and the rebuild gives the same counters", async () => {
    const run = await maintainLedgerPartitions(db, new Date("2032-02-10T00:00:00Z"), {
      monthsAhead: 0,
      retentionMonths: 25,
    });
    expect(run.dropped).toEqual(
      expect.arrayContaining([
        "ConsumeEntry_p2029_01",
        "BalanceHistoryEntry_p2029_01",
        "UsageRecordArchive_p2029_01",
      ]),
    );
    expect(run.dropped.filter((name) => name.endsWith("_p2031_12"))).toEqual([]);
    const { rows: left } = await client.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM "ConsumeEntry") + (SELECT count(*) FROM "UsageRecordArchive")
              + (SELECT count(*) FROM "BalanceHistoryEntry") AS n`,
    );
    // Only December 2031 is left: 1 consume, 2 records, 3 balance entries.
    expect(Number(left[0].n)).toBe(6);

    const { rows: bases } = await client.query(
      `SELECT "metricType", "consumedUsage"::text, "consumeCount", "reportedUsage"::text, "recordCount",
              "lastTransactionId"::text
       FROM "MeterLedgerBase" WHERE "tenantId" = $1 ORDER BY "metricType" DESC`,
      [tenantId],
    );
    expect(bases).toEqual([
      {
        metricType: "Sum",
        consumedUsage: "12.000000",
        consumeCount: 2,
        reportedUsage: "30.000000",
        recordCount: 2,
        lastTransactionId: "2",
      },
      {
        metricType: "Gauge",
        consumedUsage: "0.000000",
        consumeCount: 0,
        reportedUsage: "6.000000",
        recordCount: 2,
        lastTransactionId: "12",
      },
    ]);

    expect(await rebuild()).toEqual(expected);
  });

  it("a month folded once is never folded again (a run stopped between the fold and the drop)", async () => {
    const partition = "ConsumeEntry_p2031_12";
    expect(await foldLedgerPartition(db, "ConsumeEntry", partition)).toBe(true);
    expect(await foldLedgerPartition(db, "ConsumeEntry", partition)).toBe(false);
    const { rows } = await client.query(
      `SELECT "consumedUsage"::text, "consumeCount" FROM "MeterLedgerBase" WHERE "monitoredAssetId" = $1`,
      [asset.sum],
    );
    // 12 folded from January 2029, 3 from December 2031 once.
    expect(rows).toEqual([{ consumedUsage: "15.000000", consumeCount: 3 }]);
  });

  it("a Gauge's kept records older than its folded latest do not replace it", async () => {
    // Received in December 2031 (kept) but stamped before the folded latest (2029-01-20).
    await archived(asset.gauge, "open-projects", 14, 99, "2029-01-15T10:00:00Z", "2031-12-20T10:00:00Z");
    const { gauge } = await rebuild();
    expect(gauge).toMatchObject({ reportedUsage: "9.000000", recordCount: 4, creditsPriced: "4.000000" });
    // Without December's latest (9), the folded latest (6) still wins over the stale 99.
    await client.query(`DELETE FROM "UsageRecordArchive" WHERE "tenantId" = $1 AND "transactionId" = 13`, [
      tenantId,
    ]);
    expect((await rebuild()).gauge).toMatchObject({ reportedUsage: "6.000000", recordCount: 3 });
  });
});
