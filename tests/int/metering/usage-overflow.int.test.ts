import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { ENTITLEMENT_SCOPES, ok } from "../../helpers/entitlements.ts";
import { ASSETS, makeAsset, makeProduct } from "../../helpers/catalog-products.ts";
import { licensedEntitlement } from "../../helpers/runtime.ts";
import {
  consume,
  mediumAndCriticalBands,
  meteredLicense,
  overageTiers,
  record,
  uploadSession,
} from "../../helpers/metering.ts";

/**
 * Issue 21 item 4: usage upload accepted amounts up to 10^18 per record while meters and balances
 * are numeric(24,6): two records of 9e17 answered 500 (numeric field overflow), and one accepted
 * 9e17 record was priced into overage against the license's shared credits so that another
 * session's consume was refused CriticalBalance. Every monitored asset now bounds a record
 * (default 10^9) and a batch (default 10^12) of its metric: over a ceiling the batch is refused
 * whole with 400 usage.amount_exceeds_ceiling; a meter that would still overflow is 409
 * usage.meter_limit_exceeded; nothing is written either way.
 */

const amountOf = (metricName: string, amount: number | string) =>
  record({ eventData: { metricName, amount } });

async function periodsOf(tenant: TestTenant, assetId: string) {
  const rows = await testDb().meterPeriod.findMany({
    where: { tenantId: tenant.tenantId, monitoredAssetId: assetId },
  });
  return rows.map((r) => ({ usage: r.usage.toString(), recordCount: r.recordCount }));
}

const recordsOf = (tenant: TestTenant, entitlementId: string) =>
  testDb().usageRecord.count({ where: { tenantId: tenant.tenantId, entitlementId } });

// Many requests per test: a loaded machine outruns the default 30 s.
describe("usage overflow", { timeout: 180_000 }, () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant("Usage overflow");
  });

  it("two records of 9e17 (the issue's 500): refused 400 usage.amount_exceeds_ceiling by the default record ceiling of 10^9; nothing recorded", async () => {
    const license = await meteredLicense(tenant, { metrics: [{ metricName: "calls", metered: {} }] });
    const s = await license.session();
    const res = await uploadSession(s, [amountOf("calls", 9e17), amountOf("calls", 9e17)]);
    expectProblem(res, 400, "usage.amount_exceeds_ceiling");
    expect(res.body.code).toBe(5002);
    expect(res.body.detail).toContain("at most 1000000000.000000");
    expect(await periodsOf(tenant, license.assets.calls.assetId)).toEqual([]);
    expect(await recordsOf(tenant, license.entitlement.id)).toBe(0);
    // Within the ceiling the same session records as before.
    const fine = ok(await uploadSession(s, [amountOf("calls", 1e9)]));
    expect(fine.counted).toBe(1);
    expect(await periodsOf(tenant, license.assets.calls.assetId)).toEqual([
      { usage: "1000000000", recordCount: 1 },
    ]);
  });

  it("one absurd record cannot exhaust the credits every seat shares: refused, and another session's consume is still allowed", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [
        { metricName: "credits", balance: { totalCredits: 100, usageQuota: mediumAndCriticalBands } },
        { metricName: "renders", metered: { usageTiers: overageTiers(10) } },
      ],
    });
    const seatA = await license.session();
    const seatB = await license.session();
    expectProblem(
      await uploadSession(seatA, [amountOf("renders", 9e17)]),
      400,
      "usage.amount_exceeds_ceiling",
    );
    const balance = await testDb().balanceUsage.findUniqueOrThrow({
      where: { id: license.assets.credits.balanceUsageId! },
    });
    expect(balance.creditsUsed.toString()).toBe("0");
    const other = ok(await consume(seatB, "renders", 1));
    expect(other).toMatchObject({ allowed: true, committed: true, usage: 1 });
  });

  it("per-asset ceilings: a record over usageRecordCeiling, or a batch over usageBatchCeiling, is refused whole; within both it records", async () => {
    const license = await meteredLicense(tenant, { metrics: [{ metricName: "pages", metered: {} }] });
    await testDb().monitoredAsset.update({
      where: { id: license.assets.pages.assetId },
      data: { usageRecordCeiling: 100, usageBatchCeiling: 250 },
    });
    const s = await license.session();
    const record101 = await uploadSession(s, [amountOf("pages", 101)]);
    expectProblem(record101, 400, "usage.amount_exceeds_ceiling");
    expect(record101.body.detail).toContain("at most 100.000000");
    const batch300 = await uploadSession(s, [
      amountOf("pages", 100),
      amountOf("pages", 100),
      amountOf("pages", 100),
    ]);
    expectProblem(batch300, 400, "usage.amount_exceeds_ceiling");
    expect(batch300.body.detail).toContain("more than 250.000000 of pages");
    expect(await periodsOf(tenant, license.assets.pages.assetId)).toEqual([]);
    const within = ok(
      await uploadSession(s, [amountOf("pages", 100), amountOf("pages", 100), amountOf("pages", 50)]),
    );
    expect(within.counted).toBe(3);
    expect(await periodsOf(tenant, license.assets.pages.assetId)).toEqual([{ usage: "250", recordCount: 3 }]);
  });

  it("a lifetime meter that would pass what its column holds: 409 usage.meter_limit_exceeded, nothing written (not 500)", async () => {
    const license = await meteredLicense(tenant, { metrics: [{ metricName: "bytes", metered: {} }] });
    await testDb().monitoredAsset.update({
      where: { id: license.assets.bytes.assetId },
      data: { usageRecordCeiling: "900000000000000000", usageBatchCeiling: "900000000000000000" },
    });
    const s = await license.session();
    expect(ok(await uploadSession(s, [amountOf("bytes", "900000000000000000")])).counted).toBe(1);
    const res = await uploadSession(s, [amountOf("bytes", "900000000000000000")]);
    expectProblem(res, 409, "usage.meter_limit_exceeded");
    expect(res.body.code).toBe(5003);
    expect(await periodsOf(tenant, license.assets.bytes.assetId)).toEqual([
      { usage: "900000000000000000", recordCount: 1 },
    ]);
    expect(await recordsOf(tenant, license.entitlement.id)).toBe(1);
  });

  it("ceilings are set on the product's monitored asset over the API, validated, and copied onto the licenses made from it", async () => {
    const token = await tenant.token(ENTITLEMENT_SCOPES);
    const product = await makeProduct(token, { name: "Ceilings" });
    const asset = await makeAsset(token, product.id, {
      metricName: "exports",
      name: "Exports",
      usageRecordCeiling: 500,
    });
    expect(asset).toMatchObject({ usageRecordCeiling: 500, usageBatchCeiling: null });
    const patched = ok(
      await request("PATCH", `${ASSETS}/${asset.id}`, { token, body: { usageBatchCeiling: 2000 } }),
    );
    expect(patched).toMatchObject({ usageRecordCeiling: 500, usageBatchCeiling: 2000 });
    for (const bad of [0, -1, 1e18])
      expectProblem(
        await request("PATCH", `${ASSETS}/${asset.id}`, { token, body: { usageRecordCeiling: bad } }),
        400,
        "license.validation_error",
      );
    const { entitlement } = await licensedEntitlement(tenant, { productIds: [product.id] });
    const copy = await testDb().monitoredAsset.findFirstOrThrow({
      where: { tenantId: tenant.tenantId, entitlementId: entitlement.id, metricName: "exports" },
    });
    expect(copy.usageRecordCeiling?.toString()).toBe("500");
    expect(copy.usageBatchCeiling?.toString()).toBe("2000");
  });
});
