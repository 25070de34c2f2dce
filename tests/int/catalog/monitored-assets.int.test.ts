import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import {
  ASSETS,
  BALANCES,
  PRODUCTS,
  makeAsset,
  makeProduct,
  uniqueCode,
} from "../../helpers/catalog-products.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import { ENTITLEMENTS, OFFERS, makeEntitlement, makeOffer } from "../../helpers/entitlements.ts";
import { ALL_PROVISION_SCOPES } from "../../helpers/tenant-world.ts";

const assetKeys = [
  "id",
  "entitlementId",
  "offerId",
  "productId",
  "sourceAssetId",
  "metricName",
  "name",
  "description",
  "unit",
  "category",
  "numberFormat",
  "tags",
  "metricType",
  "meteredUsageId",
  "balanceUsageId",
  "meteredUsage",
  "balanceUsage",
  "allowedBackDatingTolerance",
  // Issue 21 item 4: what one usage record and one batch may report (null: the service defaults).
  "usageRecordCeiling",
  "usageBatchCeiling",
  "createdAt",
  "updatedAt",
  "revisionNumber",
];
const balanceKeys = [
  "id",
  "name",
  "description",
  "creditsUsed",
  "totalCredits",
  "cumulativeCreditsUsed",
  "unfundedCredits",
  "lastUnfundedAt",
  "unit",
  "numberFormat",
  "lastDeposit",
  "usageQuota",
  "suspendedUntilAt",
  "overageSeverityStatus",
  "initialCreditAmount",
  "isUnlimitedCredits",
  "autoBalanceCronSchedule",
  "lastAutoBalanceDate",
  "shouldAutoBalanceTransferCurrentCredits",
  "maxAutoBalanceCreditTransferAmount",
  "autoBalanceCreditAmount",
];
const meteredKeys = [
  "id",
  "suspendedUntilAt",
  "lastReportedOverageSeverityStatus",
  "usageTiers",
  "consumptionPeriod",
  "periodAnchor",
  "accumulationMethod",
];
const tierKeys = [
  "name",
  "startUsage",
  "startPercentage",
  "endUsage",
  "endPercentage",
  "baseCredits",
  "creditsPerUnitOfConsumption",
  "quotaUsageLevel",
  "quotaUsagePolicy",
  "fundingBalanceMetric",
];

const tier = (
  name: string,
  startUsage: number,
  endUsage: number | null,
  extra: Record<string, unknown> = {},
) => ({ name, startUsage, endUsage, ...extra });

describe("monitored assets", () => {
  let tenant: TestTenant;
  let token: string;
  let product: { id: string };
  const post = (productId: string, body: unknown) =>
    request("POST", `${PRODUCTS}/${productId}/monitored-assets`, { token, body });
  const patch = (id: string, body: unknown) => request("PATCH", `${ASSETS}/${id}`, { token, body });
  const metered = (metricName: string, meteredUsage: unknown, productId = product.id) =>
    post(productId, { metricName, name: metricName, meteredUsage });

  beforeAll(async () => {
    tenant = await createTestTenant("Assets");
    token = await tenant.token("provision.product.* provision.monitored-asset.* provision.tag.read");
    product = await makeProduct(token);
  });

  it("monitored assets: SPEC fields of the asset, its metered usage, its balance and its tiers are returned with their exact names", async () => {
    const balance = await makeAsset(token, product.id, {
      metricName: "credits",
      name: "Credits",
      description: "Prepaid",
      unit: "credits",
      category: "Billing",
      numberFormat: "0.00",
      tags: ["Money"],
      allowedBackDatingTolerance: "P7D",
      balanceUsage: {
        name: "Credit balance",
        description: "Top up monthly",
        unit: "cr",
        numberFormat: "0",
        initialCreditAmount: 500,
        isUnlimitedCredits: false,
        usageQuota: [
          { endUsage: 100, name: "Low", quotaUsageLevel: "High" },
          { endUsage: 10, name: "Empty", quotaUsageLevel: "Critical" },
        ],
        autoBalanceCronSchedule: "0 0 1 * *",
        shouldAutoBalanceTransferCurrentCredits: true,
        maxAutoBalanceCreditTransferAmount: 50,
        autoBalanceCreditAmount: 500,
      },
    });
    expect(Object.keys(balance).sort()).toEqual([...assetKeys].sort());
    expect(Object.keys(balance.balanceUsage).sort()).toEqual([...balanceKeys].sort());
    expect(balance).toMatchObject({
      productId: product.id,
      entitlementId: null,
      offerId: null,
      metricName: "credits",
      name: "Credits",
      description: "Prepaid",
      unit: "credits",
      category: "Billing",
      numberFormat: "0.00",
      tags: ["Money"],
      metricType: "CumulativeCounter",
      meteredUsageId: null,
      meteredUsage: null,
      balanceUsageId: balance.balanceUsage.id,
      allowedBackDatingTolerance: "P7D",
      balanceUsage: {
        name: "Credit balance",
        description: "Top up monthly",
        creditsUsed: 0,
        totalCredits: 500,
        cumulativeCreditsUsed: 0,
        unfundedCredits: 0,
        lastUnfundedAt: null,
        unit: "cr",
        numberFormat: "0",
        lastDeposit: null,
        suspendedUntilAt: null,
        overageSeverityStatus: "None",
        initialCreditAmount: 500,
        isUnlimitedCredits: false,
        autoBalanceCronSchedule: "0 0 1 * *",
        lastAutoBalanceDate: null,
        shouldAutoBalanceTransferCurrentCredits: true,
        maxAutoBalanceCreditTransferAmount: 50,
        autoBalanceCreditAmount: 500,
        // Stored by ascending threshold: the lowest matching threshold wins.
        usageQuota: [
          { endUsage: 10, name: "Empty", quotaUsageLevel: "Critical" },
          { endUsage: 100, name: "Low", quotaUsageLevel: "High" },
        ],
      },
    });
    const meter = await makeAsset(token, product.id, {
      metricName: "api_calls",
      name: "API calls",
      meteredUsage: {
        consumptionPeriod: "month",
        usageTiers: [
          tier("Included", 0, 1000, { endPercentage: 100, quotaUsagePolicy: "None" }),
          tier("Overage", 1000, null, {
            startPercentage: 100,
            baseCredits: 5,
            creditsPerUnitOfConsumption: 0.25,
            quotaUsageLevel: "Medium",
            quotaUsagePolicy: "AllowWithOverage",
            fundingBalanceMetric: "credits",
          }),
        ],
      },
    });
    expect(Object.keys(meter.meteredUsage).sort()).toEqual([...meteredKeys].sort());
    expect(Object.keys(meter.meteredUsage.usageTiers[0]).sort()).toEqual([...tierKeys].sort());
    expect(meter).toMatchObject({
      meteredUsageId: meter.meteredUsage.id,
      balanceUsageId: null,
      balanceUsage: null,
    });
    expect(meter.meteredUsage).toMatchObject({
      suspendedUntilAt: null,
      lastReportedOverageSeverityStatus: "None",
      consumptionPeriod: "month",
      periodAnchor: "Calendar",
      accumulationMethod: "Sliced",
      usageTiers: [
        {
          name: "Included",
          startUsage: 0,
          startPercentage: 0,
          endUsage: 1000,
          endPercentage: 100,
          baseCredits: 0,
          creditsPerUnitOfConsumption: 0,
          quotaUsageLevel: "None",
          quotaUsagePolicy: "None",
          fundingBalanceMetric: "",
        },
        {
          name: "Overage",
          startUsage: 1000,
          startPercentage: 100,
          endUsage: null,
          endPercentage: 0,
          baseCredits: 5,
          creditsPerUnitOfConsumption: 0.25,
          quotaUsageLevel: "Medium",
          quotaUsagePolicy: "AllowWithOverage",
          fundingBalanceMetric: "credits",
        },
      ],
    });
    expect((await request("GET", `${ASSETS}/${meter.id}`, { token })).body).toEqual(meter);
  });

  it("metricName is lowercase and matched case-sensitively: capitals refused, unique per product, free on another product", async () => {
    const p = await makeProduct(token);
    for (const metricName of ["API_CALLS", "Api_calls", "has space", "", "-lead"]) {
      const res = await post(p.id, { metricName, name: "x" });
      expectProblem(res, 400, "license.validation_error");
      expect(res.body.errors[0].path).toBe("body.metricName");
    }
    await makeAsset(token, p.id, { metricName: "api_calls" });
    expectProblem(await post(p.id, { metricName: "api_calls", name: "dup" }), 409, "asset.metric_taken");
    await makeAsset(token, p.id, { metricName: "api_calls.v2" });
    const other = await makeProduct(token);
    expect((await makeAsset(token, other.id, { metricName: "api_calls" })).metricName).toBe("api_calls");
    const exact = await request(
      "GET",
      `${ASSETS}?filter=${encodeURIComponent(`metricName==api_calls,productId==${p.id}`)}`,
      { token },
    );
    expect(exact.body.items.map((a: { metricName: string }) => a.metricName)).toEqual(["api_calls"]);
    const renamed = await makeAsset(token, p.id, { metricName: "old_name" });
    expectProblem(await patch(renamed.id, { metricName: "api_calls" }), 409, "asset.metric_taken");
    expectProblem(await patch(renamed.id, { metricName: "New_Name" }), 400, "license.validation_error");
    expect((await patch(renamed.id, { metricName: "new_name" })).body.metricName).toBe("new_name");
  });

  it("meteredUsage: consumptionPeriod minute..year or blank (lifetime); periodAnchor defaults to Calendar; accumulationMethod Sliced or Whole", async () => {
    for (const consumptionPeriod of ["minute", "hour", "day", "week", "month", "year", ""]) {
      const res = await metered(uniqueCode("p").toLowerCase(), { consumptionPeriod });
      expect(res.status, res.text).toBe(201);
      expect(res.body.meteredUsage).toMatchObject({
        consumptionPeriod,
        periodAnchor: "Calendar",
        accumulationMethod: "Sliced",
        usageTiers: [],
      });
    }
    const lifetime = await metered(uniqueCode("l").toLowerCase(), {});
    expect(lifetime.body.meteredUsage.consumptionPeriod).toBe("");
    const whole = await metered(uniqueCode("w").toLowerCase(), {
      consumptionPeriod: "day",
      periodAnchor: "EntitlementStart",
      accumulationMethod: "Whole",
    });
    expect(whole.body.meteredUsage).toMatchObject({
      periodAnchor: "EntitlementStart",
      accumulationMethod: "Whole",
    });
    for (const bad of [
      { consumptionPeriod: "monthly" },
      { consumptionPeriod: "Month" },
      { periodAnchor: "Fiscal" },
      { accumulationMethod: "Sum" },
    ]) {
      expectProblem(await metered(uniqueCode("b").toLowerCase(), bad), 400, "license.validation_error");
    }
  });

  it("usage tiers: listed by startUsage, contiguous, only the last open-ended, nothing after Block; percentages follow the same ladder", async () => {
    const ok = await metered(uniqueCode("t").toLowerCase(), {
      usageTiers: [
        tier("Free", 0, 100, { quotaUsagePolicy: "None" }),
        tier("Notify", 100, 200, { quotaUsagePolicy: "Notify", quotaUsageLevel: "Low" }),
        tier("Stop", 200, null, { quotaUsagePolicy: "Block", quotaUsageLevel: "Critical" }),
      ],
    });
    expect(ok.status, ok.text).toBe(201);
    const refused: [unknown[], string][] = [
      [[tier("A", 0, 100), tier("B", 150, null)], "meteredUsage.usageTiers.1.startUsage"],
      [[tier("A", 0, 100), tier("B", 50, null)], "meteredUsage.usageTiers.1.startUsage"],
      [[tier("A", 0, null), tier("B", 100, null)], "meteredUsage.usageTiers.0.endUsage"],
      [[tier("A", 10, 10)], "meteredUsage.usageTiers.0.endUsage"],
      [
        [tier("A", 0, 100, { quotaUsagePolicy: "Block" }), tier("B", 100, null)],
        "meteredUsage.usageTiers.1.quotaUsagePolicy",
      ],
      [
        [
          tier("A", 0, 100, { startPercentage: 0, endPercentage: 50 }),
          tier("B", 100, null, { startPercentage: 60 }),
        ],
        "meteredUsage.usageTiers.1.startPercentage",
      ],
      [
        [tier("A", 0, 100, { startPercentage: 50, endPercentage: 40 })],
        "meteredUsage.usageTiers.0.endPercentage",
      ],
      [
        [tier("A", 0, null, { quotaUsagePolicy: "Throttle" })],
        "body.meteredUsage.usageTiers.0.quotaUsagePolicy",
      ],
      [[tier("A", -1, null)], "body.meteredUsage.usageTiers.0.startUsage"],
      [
        [tier("A", 0, null, { creditsPerUnitOfConsumption: -2 })],
        "body.meteredUsage.usageTiers.0.creditsPerUnitOfConsumption",
      ],
      [[{ startUsage: 0 }], "body.meteredUsage.usageTiers.0.name"],
    ];
    for (const [usageTiers, path] of refused) {
      const res = await metered(uniqueCode("r").toLowerCase(), { usageTiers });
      expectProblem(res, 400, "license.validation_error");
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(usageTiers),
      ).toContain(path);
    }
  });

  it("usage tiers: fundingBalanceMetric only with AllowWithOverage, and it must name one of the owner's credit balances", async () => {
    const p = await makeProduct(token);
    await makeAsset(token, p.id, {
      metricName: "credits",
      balanceUsage: { name: "Credits", initialCreditAmount: 10 },
    });
    await makeAsset(token, p.id, { metricName: "plain_metric" });
    const overage = (extra: Record<string, unknown>) => [tier("Base", 0, 10), tier("Over", 10, null, extra)];
    const ok = await metered(
      "calls",
      { usageTiers: overage({ quotaUsagePolicy: "AllowWithOverage", fundingBalanceMetric: "credits" }) },
      p.id,
    );
    expect(ok.status, ok.text).toBe(201);
    const reportOnly = await metered(
      "calls_b",
      { usageTiers: overage({ quotaUsagePolicy: "AllowWithOverage" }) },
      p.id,
    );
    expect(reportOnly.body.meteredUsage.usageTiers[1].fundingBalanceMetric).toBe("");
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { quotaUsagePolicy: "None", fundingBalanceMetric: "credits" },
        /only meaningful with quotaUsagePolicy AllowWithOverage/,
      ],
      [{ quotaUsagePolicy: "Block", fundingBalanceMetric: "credits" }, /only meaningful/],
      [
        { quotaUsagePolicy: "AllowWithOverage", fundingBalanceMetric: "plain_metric" },
        /not a credit balance/,
      ],
      [{ quotaUsagePolicy: "AllowWithOverage", fundingBalanceMetric: "nothing" }, /not a credit balance/],
      [{ quotaUsagePolicy: "AllowWithOverage", fundingBalanceMetric: "CREDITS" }, /lowercase/],
    ];
    for (const [extra, message] of cases) {
      const res = await metered(uniqueCode("f").toLowerCase(), { usageTiers: overage(extra) }, p.id);
      expectProblem(res, 400, "license.validation_error");
      expect(res.body.errors[0]).toMatchObject({
        path: "meteredUsage.usageTiers.1.fundingBalanceMetric",
        message: expect.stringMatching(message),
      });
    }
    // Another product's balance does not count.
    const elsewhere = await metered(
      "calls",
      { usageTiers: overage({ quotaUsagePolicy: "AllowWithOverage", fundingBalanceMetric: "credits" }) },
      (await makeProduct(token)).id,
    );
    expectProblem(elsewhere, 400, "license.validation_error");
  });

  it("balanceUsage: autoBalanceCronSchedule is a five-field cron with * , - / only; quota bands have distinct thresholds", async () => {
    for (const schedule of ["*/15 * * * *", "0 0 1 * *", "0 9-17 * * 1-5", "5,35 */2 1-7 1,4,7,10 0"]) {
      const res = await post(product.id, {
        metricName: uniqueCode("c").toLowerCase(),
        name: "c",
        balanceUsage: { name: "b", autoBalanceCronSchedule: schedule },
      });
      expect(res.status, `${schedule}: ${res.text}`).toBe(201);
    }
    for (const schedule of [
      "* * * *",
      "0 0 * * * *",
      "@daily",
      "0 0 * JAN *",
      "0 0 L * *",
      "60 * * * *",
      "0 0 32 * *",
      "0 0 ? * *",
      "0 0 * * 1#2",
    ]) {
      const res = await post(product.id, {
        metricName: uniqueCode("c").toLowerCase(),
        name: "c",
        balanceUsage: { name: "b", autoBalanceCronSchedule: schedule },
      });
      expectProblem(res, 400, "license.validation_error");
      expect(res.body.errors[0].path, schedule).toBe("body.balanceUsage.autoBalanceCronSchedule");
    }
    const bands = await post(product.id, {
      metricName: uniqueCode("q").toLowerCase(),
      name: "q",
      balanceUsage: {
        name: "b",
        usageQuota: [
          { endUsage: 5, name: "a" },
          { endUsage: 5, name: "b" },
        ],
      },
    });
    expectProblem(bands, 400, "license.validation_error");
    const level = await post(product.id, {
      metricName: uniqueCode("q").toLowerCase(),
      name: "q",
      balanceUsage: { name: "b", usageQuota: [{ endUsage: 5, name: "a", quotaUsageLevel: "Severe" }] },
    });
    expectProblem(level, 400, "license.validation_error");
    expectProblem(
      await post(product.id, {
        metricName: uniqueCode("n").toLowerCase(),
        name: "n",
        balanceUsage: { name: "b", initialCreditAmount: -5 },
      }),
      400,
      "license.validation_error",
    );
  });

  it("meteredUsage and balanceUsage are exclusive; an asset with neither is a plain tracked metric", async () => {
    const both = await post(product.id, {
      metricName: uniqueCode("x").toLowerCase(),
      name: "x",
      meteredUsage: {},
      balanceUsage: { name: "b" },
    });
    expectProblem(both, 400, "license.validation_error");
    const plain = await makeAsset(token, product.id);
    expect(plain).toMatchObject({
      meteredUsage: null,
      balanceUsage: null,
      meteredUsageId: null,
      balanceUsageId: null,
    });
  });

  it("allowedBackDatingTolerance is an ISO 8601 duration (null by default; clearAllowedBackDatingTolerance clears)", async () => {
    const asset = await makeAsset(token, product.id);
    expect(asset.allowedBackDatingTolerance).toBeNull();
    for (const duration of ["PT15M", "P1D", "P2W", "P1Y2M3DT4H5M6.5S", "PT36H"]) {
      const res = await patch(asset.id, { allowedBackDatingTolerance: duration });
      expect(res.status, `${duration}: ${res.text}`).toBe(200);
      expect(res.body.allowedBackDatingTolerance).toBe(duration);
    }
    for (const duration of ["P", "PT", "1D", "P1H", "PT1.5M", "P-1D", "7 days"]) {
      expectProblem(
        await patch(asset.id, { allowedBackDatingTolerance: duration }),
        400,
        "license.validation_error",
      );
    }
    expect(
      (await patch(asset.id, { clearAllowedBackDatingTolerance: true })).body.allowedBackDatingTolerance,
    ).toBeNull();
  });

  it("PATCH merges the asset and its usage object, attaches one, and switches only when the other is removed first", async () => {
    const asset = await makeAsset(token, product.id, {
      name: "Before",
      tags: ["Tag-a"],
      meteredUsage: { consumptionPeriod: "month", usageTiers: [tier("All", 0, null)] },
    });
    const merged = await patch(asset.id, {
      name: "After",
      tags: null,
      meteredUsage: { consumptionPeriod: "day" },
    });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body).toMatchObject({
      name: "After",
      tags: ["Tag-a"],
      revisionNumber: 2,
      meteredUsage: {
        id: asset.meteredUsage.id,
        consumptionPeriod: "day",
        usageTiers: [expect.objectContaining({ name: "All" })],
      },
    });
    expectProblem(await patch(asset.id, { balanceUsage: { name: "b" } }), 400, "license.validation_error");
    const switched = await patch(asset.id, {
      clearMeteredUsage: true,
      balanceUsage: { name: "Now a balance", initialCreditAmount: 20 },
    });
    expect(switched.status, switched.text).toBe(200);
    expect(switched.body).toMatchObject({
      meteredUsage: null,
      meteredUsageId: null,
      balanceUsage: { name: "Now a balance", initialCreditAmount: 20, totalCredits: 20 },
    });
    expectProblem(
      await patch(asset.id, { meteredUsage: { consumptionPeriod: "day" } }),
      400,
      "license.validation_error",
    );
    const balance = await patch(asset.id, {
      balanceUsage: { initialCreditAmount: 30, autoBalanceCronSchedule: "0 0 * * 1" },
    });
    expect(balance.body.balanceUsage).toMatchObject({
      name: "Now a balance",
      initialCreditAmount: 30,
      totalCredits: 30,
      autoBalanceCronSchedule: "0 0 * * 1",
    });
    const cleared = await patch(asset.id, { balanceUsage: { clearAutoBalanceCronSchedule: true } });
    expect(cleared.body.balanceUsage.autoBalanceCronSchedule).toBeNull();
    const plain = await makeAsset(token, product.id);
    expectProblem(
      await patch(plain.id, { balanceUsage: { initialCreditAmount: 5 } }),
      400,
      "license.validation_error",
    );
    expect(
      (await patch(plain.id, { meteredUsage: { usageTiers: [tier("All", 0, null)] } })).body.meteredUsage
        .usageTiers,
    ).toHaveLength(1);
    expectProblem(
      await patch(asset.id, { name: "stale", revisionNumber: 1 }),
      409,
      "concurrency.revision_mismatch",
    );
  });

  it("GET /admin/monitored-assets and GET /admin/products/{id}/monitored-assets: paginated, Sieve filter and sort", async () => {
    const p = await makeProduct(token);
    await makeAsset(token, p.id, { metricName: "b_metric", category: "Usage", meteredUsage: {} });
    await makeAsset(token, p.id, {
      metricName: "a_metric",
      category: "Billing",
      balanceUsage: { name: "A" },
    });
    await makeAsset(token, p.id, { metricName: "c_metric", category: "Usage" });
    const own = await request("GET", `${PRODUCTS}/${p.id}/monitored-assets?pageSize=2`, { token });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ totalCount: 3, totalPages: 2, hasNextPage: true, pageSize: 2 });
    expect(own.body.items.map((a: { metricName: string }) => a.metricName)).toEqual(["a_metric", "b_metric"]);
    const usage = await request(
      "GET",
      `${ASSETS}?filter=${encodeURIComponent(`productId==${p.id},category==Usage`)}&sortOrder=-metricName`,
      { token },
    );
    expect(usage.body.items.map((a: { metricName: string }) => a.metricName)).toEqual([
      "c_metric",
      "b_metric",
    ]);
    const balances = await request(
      "GET",
      `${ASSETS}?filter=${encodeURIComponent(`productId==${p.id},usageKind==Balance`)}`,
      { token },
    );
    expect(balances.body.items.map((a: { metricName: string }) => a.metricName)).toEqual(["a_metric"]);
    const none = await request(
      "GET",
      `${ASSETS}?filter=${encodeURIComponent(`productId==${p.id},usageKind==None`)}`,
      { token },
    );
    expect(none.body.items.map((a: { metricName: string }) => a.metricName)).toEqual(["c_metric"]);
    expectProblem(
      await request("GET", `${ASSETS}?filter=balanceUsage==x`, { token }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("GET", `${ASSETS}?sortOrder=usageKind`, { token }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("GET", `${PRODUCTS}/${crypto.randomUUID()}/monitored-assets`, { token }),
      404,
      "license.not_found",
    );
  });

  it("DELETE /admin/monitored-assets/{id} removes a product's asset with its usage object", async () => {
    const asset = await makeAsset(token, product.id, { balanceUsage: { name: "b" } });
    expect((await request("DELETE", `${ASSETS}/${asset.id}`, { token })).status).toBe(204);
    expectProblem(await request("GET", `${ASSETS}/${asset.id}`, { token }), 404, "license.not_found");
    expectProblem(
      await request("DELETE", `${BALANCES}/${asset.balanceUsage.id}`, { token }),
      404,
      "license.not_found",
    );
    expectProblem(await request("DELETE", `${ASSETS}/${asset.id}`, { token }), 404, "license.not_found");
  });

  it("DELETE /admin/asset-balances/{balanceId}: a product's balance is deleted (204); copies held by entitlements or offers are left as they are", async () => {
    const asset = await makeAsset(token, product.id, {
      balanceUsage: { name: "Credits", initialCreditAmount: 100 },
    });
    const copyBalanceId = await insertCopy(asset, "Entitlement", "Published");
    const copies = await request(
      "GET",
      `${ASSETS}?filter=${encodeURIComponent(`sourceAssetId==${asset.id}`)}`,
      { token },
    );
    expect(copies.body.items).toEqual([
      expect.objectContaining({
        sourceAssetId: asset.id,
        productId: product.id,
        entitlementId: expect.any(String),
        offerId: null,
      }),
    ]);
    const res = await request("DELETE", `${BALANCES}/${asset.balanceUsage.id}`, { token });
    expect(res.status, res.text).toBe(204);
    const after = await request("GET", `${ASSETS}/${asset.id}`, { token });
    expect(after.body).toMatchObject({
      balanceUsage: null,
      balanceUsageId: null,
      metricName: asset.metricName,
    });
    const copy = await tenantDb(testDb(), tenant.tenantId).balanceUsage.findUnique({
      where: { id: copyBalanceId },
    });
    expect(copy).not.toBeNull();
    expectProblem(
      await request("DELETE", `${BALANCES}/${asset.balanceUsage.id}`, { token }),
      404,
      "license.not_found",
    );
  });

  it("DELETE /admin/asset-balances/{balanceId}: a copy on an entitlement or offer that is Draft or Published is refused (400); other owner states may delete", async () => {
    const asset = await makeAsset(token, product.id, { balanceUsage: { name: "Credits" } });
    for (const ownerKind of ["Entitlement", "Offer"] as const) {
      for (const ownerStatus of ["Draft", "Published"]) {
        const balanceId = await insertCopy(asset, ownerKind, ownerStatus);
        expectProblem(
          await request("DELETE", `${BALANCES}/${balanceId}`, { token }),
          400,
          "asset.balance_in_use",
        );
        expect(
          await tenantDb(testDb(), tenant.tenantId).balanceUsage.findUnique({ where: { id: balanceId } }),
        ).not.toBeNull();
      }
      const retired = await insertCopy(asset, ownerKind, "Archived");
      expect((await request("DELETE", `${BALANCES}/${retired}`, { token })).status).toBe(204);
    }
    // The same rule guards deleting the copy's whole asset.
    const copyBalance = await insertCopy(asset, "Entitlement", "Published");
    const copyAsset = await tenantDb(testDb(), tenant.tenantId).balanceUsage.findUniqueOrThrow({
      where: { id: copyBalance },
    });
    expectProblem(
      await request("DELETE", `${ASSETS}/${copyAsset.monitoredAssetId}`, { token }),
      400,
      "asset.in_use",
    );
  });

  it("every route: 401 without a token, 403 with a wrong scope, 404 for another tenant's asset or balance", async () => {
    const asset = await makeAsset(token, product.id, { balanceUsage: { name: "b" } });
    const routes: [string, string, unknown?][] = [
      ["GET", ASSETS],
      ["GET", `${ASSETS}/${asset.id}`],
      ["PATCH", `${ASSETS}/${asset.id}`, { name: "x" }],
      ["DELETE", `${ASSETS}/${asset.id}`],
      ["DELETE", `${BALANCES}/${asset.balanceUsage.id}`],
    ];
    const wrongScope = await tenant.token("provision.product.*");
    const other = await createTestTenant("Assets intruder");
    const otherToken = await other.token("provision.monitored-asset.*");
    for (const [method, path, body] of routes) {
      expectProblem(await request(method, path, { body }), 401, "auth.unauthenticated");
      expectProblem(await request(method, path, { token: wrongScope, body }), 403, "auth.insufficient_scope");
      if (path !== ASSETS)
        expectProblem(await request(method, path, { token: otherToken, body }), 404, "license.not_found");
    }
    expect((await request("GET", ASSETS, { token: otherToken })).body.items).toEqual([]);
    expect((await request("GET", `${ASSETS}/${asset.id}`, { token })).body.balanceUsage).not.toBeNull();
  });

  /**
   * The copy of a product asset an entitlement or offer holds: one made from the product through
   * the API (in `ownerStatus`; Archived ones made, then deleted); returns the copy's balance id.
   */
  async function insertCopy(
    asset: { id: string },
    ownerKind: "Entitlement" | "Offer",
    ownerStatus: string,
  ): Promise<string> {
    const admin = await tenant.token(ALL_PROVISION_SCOPES);
    const body = { name: "Holds a copy", productIds: [product.id] };
    const owner =
      ownerKind === "Entitlement"
        ? await makeEntitlement(admin, { ...body, status: ownerStatus === "Draft" ? "Draft" : "Published" })
        : await makeOffer(admin, body, ownerStatus !== "Draft");
    if (ownerStatus === "Archived") {
      const path = ownerKind === "Entitlement" ? ENTITLEMENTS : OFFERS;
      expect((await request("DELETE", `${path}/${owner.id}`, { token: admin })).status).toBe(204);
    }
    const ownerField = ownerKind === "Entitlement" ? "entitlementId" : "offerId";
    const copies = await request(
      "GET",
      `${ASSETS}?filter=${encodeURIComponent(`sourceAssetId==${asset.id},${ownerField}==${owner.id}`)}`,
      { token },
    );
    expect(copies.body.items, copies.text).toHaveLength(1);
    return copies.body.items[0].balanceUsage.id as string;
  }
});
