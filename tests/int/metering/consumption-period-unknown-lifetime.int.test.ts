import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { ENTITLEMENT_SCOPES, ok } from "../../helpers/entitlements.ts";
import { ASSETS, makeAsset, makeProduct } from "../../helpers/catalog-products.ts";
import { activated, licensedEntitlement } from "../../helpers/runtime.ts";
import { consume } from "../../helpers/metering.ts";
import { exportCatalog, importCatalog } from "../portability/portability-fixtures.ts";

/**
 * Issue 21 item 10 (second part): docs/api.md says a blank or unrecognised `consumptionPeriod` means a
 * lifetime allowance. Writes through the API refuse an unknown unit (documented in
 * docs/decisions.md), but a stored or imported unknown value reads and decides as lifetime. Before,
 * an import of an asset with `consumptionPeriod: "fortnight"` refused the asset, and the imported
 * product's licenses did not track the metric at all.
 */

const SCOPES = [...ENTITLEMENT_SCOPES, "provision.catalog.*", "provision.activation-code.*"];

/** A license of `productId` in `tenant`, activated on a new device. */
async function sessionOf(tenant: TestTenant, productId: string) {
  const { code } = await licensedEntitlement(tenant, { productIds: [productId] });
  return activated({ activationCode: code, fingerprint: `period-${randomUUID()}` });
}

// Many requests per test: a loaded machine outruns the default 30 s.
describe("an unrecognised consumptionPeriod is a lifetime allowance", { timeout: 180_000 }, () => {
  let source: TestTenant;
  let token: string;
  let productId: string;
  let assetId: string;

  beforeAll(async () => {
    source = await createTestTenant("Period source");
    token = await source.token(SCOPES);
    productId = (await makeProduct(token, { name: "Metered product" })).id;
    assetId = (
      await makeAsset(token, productId, {
        metricName: "renders",
        name: "Renders",
        meteredUsage: { consumptionPeriod: "month", usageTiers: [] },
      })
    ).id;
  });

  it("the API refuses an unknown unit on write (400 license.validation_error)", async () => {
    const res = await request("POST", `/api/v1/provision/admin/products/${productId}/monitored-assets`, {
      token,
      body: { metricName: "other", name: "Other", meteredUsage: { consumptionPeriod: "fortnight" } },
    });
    expectProblem(res, 400, "license.validation_error");
  });

  it("a catalog import of an asset with consumptionPeriod 'fortnight' creates it as a lifetime allowance (noted), and its licenses meter it lifetime", async () => {
    const file = await exportCatalog(token, { products: { mode: "Ids", ids: [productId] } });
    const asset = file.sections.monitoredAssets.find(
      (a: { metricName: string }) => a.metricName === "renders",
    );
    expect(asset.meteredUsage.consumptionPeriod).toBe("month");
    asset.meteredUsage.consumptionPeriod = "fortnight";

    const target = await createTestTenant("Period target");
    const targetToken = await target.token(SCOPES);
    const res = await importCatalog(targetToken, file);
    expect(res.status, res.text).toBe(200);
    const item = res.body.sections
      .find((s: { section: string }) => s.section === "monitoredAssets")
      .items.find((i: { key: string }) => i.key.endsWith("/renders"));
    expect(item.action).toBe("Created");
    expect(item.reason).toBe(
      'consumptionPeriod "fortnight" is not a unit this service knows: imported as a lifetime allowance (blank).',
    );

    const imported = await testDb().monitoredAsset.findFirstOrThrow({
      where: { tenantId: target.tenantId, metricName: "renders", ownerKind: "Product" },
    });
    const read = ok(await request("GET", `${ASSETS}/${imported.id}`, { token: targetToken }));
    expect(read.meteredUsage.consumptionPeriod).toBe("");

    const session = await sessionOf(target, imported.productId!);
    const first = ok(await consume(session, "renders", 2));
    expect(first).toMatchObject({
      allowed: true,
      periodKey: "lifetime",
      periodStart: null,
      periodEnd: null,
      usage: 2,
    });
    const second = ok(await consume(session, "renders", 3));
    expect(second).toMatchObject({ periodKey: "lifetime", usage: 5 });
  });

  it("a stored unknown value (written before validation, or by another version) reads as stored and decides as lifetime", async () => {
    await testDb().meteredUsage.updateMany({
      where: { tenantId: source.tenantId, monitoredAssetId: assetId },
      data: { consumptionPeriod: "fortnight" },
    });
    const read = ok(await request("GET", `${ASSETS}/${assetId}`, { token }));
    expect(read.meteredUsage.consumptionPeriod).toBe("fortnight");
    const session = await sessionOf(source, productId);
    const decided = ok(await consume(session, "renders", 4));
    expect(decided).toMatchObject({ allowed: true, periodKey: "lifetime", periodEnd: null, usage: 4 });
  });
});
