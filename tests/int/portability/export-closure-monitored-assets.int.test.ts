import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, request, type TestTenant } from "../../helpers/api.ts";
import {
  ENTITLEMENT_SCOPES,
  entitlementCatalog,
  makeEntitlement,
  makeOffer,
  ok,
} from "../../helpers/entitlements.ts";
import { makeAsset } from "../../helpers/catalog-products.ts";
import { activated } from "../../helpers/runtime.ts";
import { consume } from "../../helpers/metering.ts";
import { exportCatalog, importOk, sectionOf } from "./portability-fixtures.ts";

/**
 * Issue 21 item 8: exporting an offer (or a product) with includeDependencies left the
 * `monitoredAssets` section empty (the assets appeared only as the read-only nested copy), so an
 * import into another tenant created products and offers without metering: a license from the
 * imported offer answered `license.metric_not_tracked` where the source allowed the consume. A
 * product now brings its monitored assets into their section; metering survives the round trip.
 */

const SCOPES = [...ENTITLEMENT_SCOPES, "provision.catalog.*", "provision.activation-code.*"];

/** A Published entitlement of `offerId`, activated on a new device: its license token and session. */
async function licenseFromOffer(tenant: TestTenant, offerId: string) {
  const token = await tenant.token(SCOPES);
  const entitlement = await makeEntitlement(token, { offerId });
  const codes = ok(
    await request("POST", `/api/v1/provision/operational/entitlements/${entitlement.id}/activation-codes`, {
      token,
      body: {},
    }),
  );
  return activated({ activationCode: codes.codes[0].code, fingerprint: `closure-${randomUUID()}` });
}

// Many requests per test: a loaded machine outruns the default 30 s.
describe("catalog export closure: monitored assets travel with their products", { timeout: 180_000 }, () => {
  let source: TestTenant;
  let sourceToken: string;
  let offerId: string;
  let productId: string;
  let offerName: string;

  beforeAll(async () => {
    source = await createTestTenant("Closure source");
    const cat = await entitlementCatalog(source);
    sourceToken = await source.token(SCOPES);
    productId = cat.product.id;
    // A tracked metric beside the catalog's ai-credits balance (initialCreditAmount 1000).
    await makeAsset(sourceToken, productId, { metricName: "exports", name: "Exports" });
    offerName = `Closure offer ${randomUUID().slice(0, 8)}`;
    offerId = (
      await makeOffer(sourceToken, {
        name: offerName,
        productIds: [productId],
        planSetId: cat.planSet.id,
        planName: "Basic",
      })
    ).id;
  });

  it("exporting an offer with includeDependencies puts its products' monitored assets into the monitoredAssets section", async () => {
    const snapshot = await exportCatalog(sourceToken, {
      entitlementOffers: { mode: "Ids", ids: [offerId] },
      includeDependencies: true,
    });
    const metrics = snapshot.sections.monitoredAssets.map((a: { metricName: string }) => a.metricName).sort();
    expect(metrics).toEqual(["ai-credits", "exports"]);
    for (const asset of snapshot.sections.monitoredAssets) {
      expect(asset.productId).toBe(productId);
      expect(snapshot.references[asset.id]).toMatchObject({ kind: "MonitoredAsset", presence: "Dependency" });
    }
    expect(snapshot.counts.monitoredAssets).toBe(2);
  });

  it("exporting a product with includeDependencies does too; a strict slice (false) does not", async () => {
    const closed = await exportCatalog(sourceToken, { products: { mode: "Ids", ids: [productId] } });
    expect(closed.sections.monitoredAssets.map((a: { metricName: string }) => a.metricName).sort()).toEqual([
      "ai-credits",
      "exports",
    ]);
    const strict = await exportCatalog(sourceToken, {
      products: { mode: "Ids", ids: [productId] },
      includeDependencies: false,
    });
    expect(strict.sections.monitoredAssets).toEqual([]);
  });

  it("two-tenant round trip: a license from the imported offer consumes the metrics the source's license consumes", async () => {
    const before = await licenseFromOffer(source, offerId);
    const sourceConsume = await consume(before, "ai-credits", 5);
    expect(sourceConsume.status, sourceConsume.text).toBe(200);
    expect((await consume(before, "exports", 1)).status).toBe(200);

    const snapshot = await exportCatalog(sourceToken, {
      entitlementOffers: { mode: "Ids", ids: [offerId] },
      includeDependencies: true,
    });
    const target = await createTestTenant("Closure target");
    const targetToken = await target.token(SCOPES);
    const result = await importOk(targetToken, snapshot);
    expect(sectionOf(result, "monitoredAssets").created).toBe(2);
    expect(sectionOf(result, "entitlementOffers").created).toBe(1);

    const offers = ok(
      await request("GET", `/api/v1/provision/admin/offers?filters=name==${encodeURIComponent(offerName)}`, {
        token: targetToken,
      }),
    );
    const imported = offers.items.find((o: { name: string }) => o.name === offerName);
    expect(imported).toBeDefined();
    const after = await licenseFromOffer(target, imported.id);
    const targetConsume = await consume(after, "ai-credits", 5);
    expect(targetConsume.status, targetConsume.text).toBe(200);
    const exports = await consume(after, "exports", 1);
    expect(exports.status, exports.text).toBe(200);
  });
});
