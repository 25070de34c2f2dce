import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestTenant, testDb, type TestTenant } from "../../helpers/api.ts";
import { consume, meteredLicense, ok200 } from "../../helpers/metering.ts";
import { runAutoBalances } from "../../../server/domain/cross-tenant.ts";
import { sqlOnPool } from "../../../server/db/sql.ts";

const HOUR = 3_600_000;

describe("auto-balance", () => {
  let tenant: TestTenant;
  let workerA: pg.Pool;
  let workerB: pg.Pool;

  beforeAll(async () => {
    tenant = await createTestTenant("Auto-balance");
    workerA = new pg.Pool({ connectionString: inject("databaseUrl"), max: 3 });
    workerB = new pg.Pool({ connectionString: inject("databaseUrl"), max: 3 });
  });
  afterAll(async () => {
    await workerA.end();
    await workerB.end();
  });

  const nextHour = () => new Date(Math.ceil(Date.now() / HOUR) * HOUR);
  const runs = (balanceUsageId: string) =>
    testDb().autoBalanceRun.findMany({
      where: { tenantId: tenant.tenantId, balanceUsageId },
      orderBy: { scheduledAt: "asc" },
    });
  const balance = (id: string) => testDb().balanceUsage.findUniqueOrThrow({ where: { id } });

  it("auto-balance runs exactly once per scheduled instant with several workers", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [
        {
          metricName: "credits",
          balance: { totalCredits: 10, autoBalanceCronSchedule: "0 * * * *", autoBalanceCreditAmount: 100 },
        },
      ],
    });
    const id = license.assets.credits.balanceUsageId!;
    const instant = nextHour();
    // Before the first instant after the balance was made there is nothing to do.
    await runAutoBalances(sqlOnPool(workerA), new Date(instant.getTime() - 1000));
    expect(await runs(id)).toEqual([]);
    const at = new Date(instant.getTime() + 30_000);
    await Promise.all([
      runAutoBalances(sqlOnPool(workerA), at),
      runAutoBalances(sqlOnPool(workerB), at),
      runAutoBalances(sqlOnPool(workerA), at),
      runAutoBalances(sqlOnPool(workerB), at),
    ]);
    expect((await runs(id)).map((r) => [r.scheduledAt.toISOString(), r.creditsAdded.toNumber()])).toEqual([
      [instant.toISOString(), 100],
    ]);
    const after = await balance(id);
    expect([
      after.totalCredits.toNumber(),
      after.creditsUsed.toNumber(),
      after.lastAutoBalanceDate?.toISOString(),
    ]).toEqual([100, 0, instant.toISOString()]);
    const history = await testDb().balanceHistoryEntry.findMany({ where: { balanceUsageId: id } });
    expect(history.map((h) => [h.operation, h.amount.toNumber(), h.actorKind])).toEqual([
      ["AutoBalance", 100, "system"],
    ]);
    // A later minute of the same hour finds the instant done; the next hour's instant runs once more.
    await runAutoBalances(sqlOnPool(workerB), new Date(instant.getTime() + 20 * 60_000));
    expect(await runs(id)).toHaveLength(1);
    await Promise.all([
      runAutoBalances(sqlOnPool(workerA), new Date(instant.getTime() + HOUR + 5_000)),
      runAutoBalances(sqlOnPool(workerB), new Date(instant.getTime() + HOUR + 5_000)),
    ]);
    expect((await runs(id)).map((r) => r.scheduledAt.getTime())).toEqual([
      instant.getTime(),
      instant.getTime() + HOUR,
    ]);
  });

  it("shouldAutoBalanceTransferCurrentCredits carries what remains, up to maxAutoBalanceCreditTransferAmount, on top of autoBalanceCreditAmount", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [
        {
          metricName: "credits",
          balance: {
            totalCredits: 100,
            autoBalanceCronSchedule: "0 * * * *",
            autoBalanceCreditAmount: 100,
            shouldAutoBalanceTransferCurrentCredits: true,
            maxAutoBalanceCreditTransferAmount: 50,
          },
        },
      ],
    });
    const s = await license.session();
    ok200(await consume(s, "credits", 30));
    const id = license.assets.credits.balanceUsageId!;
    const instant = nextHour();
    await runAutoBalances(sqlOnPool(workerA), new Date(instant.getTime() + 1000));
    const [run] = await runs(id);
    expect(
      [run.remainingBefore, run.creditsTransferred, run.creditsAdded, run.remainingAfter].map((d) =>
        d.toNumber(),
      ),
    ).toEqual([70, 50, 100, 150]);
    const after = await balance(id);
    expect([
      after.totalCredits.toNumber(),
      after.creditsUsed.toNumber(),
      after.cumulativeCreditsUsed.toNumber(),
    ]).toEqual([150, 0, 30]);
  });

  it("an unlimited balance, an archived entitlement's balance and a balance without schedule are never auto-balanced", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [
        {
          metricName: "unlimited",
          balance: {
            isUnlimitedCredits: true,
            autoBalanceCronSchedule: "0 * * * *",
            autoBalanceCreditAmount: 5,
          },
        },
        { metricName: "plain", balance: { totalCredits: 3 } },
      ],
    });
    const archived = await meteredLicense(tenant, {
      metrics: [
        {
          metricName: "credits",
          balance: { totalCredits: 1, autoBalanceCronSchedule: "0 * * * *", autoBalanceCreditAmount: 5 },
        },
      ],
    });
    await testDb().monitoredAsset.updateMany({
      where: { entitlementId: archived.entitlement.id },
      data: { ownerStatus: "Archived" },
    });
    await runAutoBalances(sqlOnPool(workerA), new Date(nextHour().getTime() + 1000));
    for (const id of [
      license.assets.unlimited.balanceUsageId!,
      license.assets.plain.balanceUsageId!,
      archived.assets.credits.balanceUsageId!,
    ])
      expect(await runs(id)).toEqual([]);
  });
});
