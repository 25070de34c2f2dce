import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, request, testDb, type TestTenant } from "../../helpers/api.ts";
import {
  consume,
  meteredLicense,
  ok200,
  overageTiers,
  record,
  uploadSession,
} from "../../helpers/metering.ts";
import { rebuildMeteringCounters } from "../../../server/domain/metering/ledger/rebuild-counters.ts";
import { systemContext } from "../../../server/domain/context.ts";

describe("ledger", () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant("Ledger");
  });

  it("counters rebuilt from the ledger equal the stored ones", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [
        {
          metricName: "api-calls",
          metered: {
            consumptionPeriod: "day",
            usageTiers: overageTiers(20, { baseCredits: 1, creditsPerUnitOfConsumption: 0.25 }),
          },
        },
        { metricName: "level", metricType: "Gauge", metered: { consumptionPeriod: "day" } },
        { metricName: "credits", balance: { totalCredits: 30 } },
        { metricName: "events" },
      ],
    });
    const s = await license.session();
    const balanceToken = await tenant.token("provision.balance.*");
    const balanceOp = (op: string, amount: number) =>
      request(
        "POST",
        `/api/v1/provision/operational/entitlements/${license.entitlement.id}/balances/credits/${op}`,
        {
          token: balanceToken,
          body: { amount },
        },
      );
    const hour = 3_600_000;
    ok200(await consume(s, "api-calls", 15));
    ok200(
      await uploadSession(s, [
        record({ eventName: "api-calls", eventData: { amount: 12 } }),
        record({
          eventName: "api-calls",
          eventData: { amount: 3 },
          creationDateTime: new Date(Date.now() - 30 * hour),
        }),
        record({ eventName: "level", eventData: { amount: 8 } }),
        record({
          eventName: "level",
          eventData: { amount: 5 },
          creationDateTime: new Date(Date.now() - 60_000),
        }),
        record({ eventName: "events" }),
        record({ eventName: "credits", eventData: { amount: 4 } }),
        record({ eventName: "nothing" }),
      ]),
    );
    ok200(await consume(s, "api-calls", 10));
    expect((await balanceOp("deposit", 10)).status).toBe(200);
    ok200(await consume(s, "credits", 6));
    expect((await balanceOp("withdraw", 2)).status).toBe(200);
    ok200(await uploadSession(s, [record({ eventName: "api-calls", eventData: { amount: 400 } })]));
    expect((await balanceOp("set", 40)).status).toBe(200);
    ok200(await consume(s, "api-calls", 4));
    ok200(await consume(s, "events", 2));

    const rebuilt = await rebuildMeteringCounters(
      systemContext(testDb(), tenant.tenantId, "test"),
      license.entitlement.id,
    );
    const stored = await testDb().meterPeriod.findMany({
      where: { tenantId: tenant.tenantId, entitlementId: license.entitlement.id },
    });
    const shape = (p: { monitoredAssetId: string; periodKey: string }) =>
      `${p.monitoredAssetId}|${p.periodKey}`;
    expect(rebuilt.periods.length).toBe(stored.length);
    const byKey = new Map(rebuilt.periods.map((p) => [shape(p), p]));
    for (const p of stored) {
      const r = byKey.get(shape(p))!;
      expect(
        [
          r.usage,
          r.consumedUsage,
          r.reportedUsage,
          r.creditsPriced,
          r.creditsCharged,
          r.consumeCount,
          r.recordCount,
        ].map(String),
      ).toEqual(
        [
          p.usage,
          p.consumedUsage,
          p.reportedUsage,
          p.creditsPriced,
          p.creditsCharged,
          p.consumeCount,
          p.recordCount,
        ].map((v) => (typeof v === "number" ? String(v) : v.toFixed(6))),
      );
    }
    const balance = await testDb().balanceUsage.findUniqueOrThrow({
      where: { id: license.assets.credits.balanceUsageId! },
    });
    expect(rebuilt.balances).toEqual([
      {
        balanceUsageId: balance.id,
        totalCredits: balance.totalCredits.toFixed(6),
        creditsUsed: balance.creditsUsed.toFixed(6),
        cumulativeCreditsUsed: balance.cumulativeCreditsUsed.toFixed(6),
        unfundedCredits: balance.unfundedCredits.toFixed(6),
      },
    ]);
    // The funded overage of 400 uploaded units could not all be paid: part of it is unfunded.
    expect(balance.unfundedCredits.toNumber()).toBeGreaterThan(0);
  });
});
