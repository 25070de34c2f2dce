import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, type TestTenant } from "../../helpers/api.ts";
import { deleteOffer } from "../../../server/domain/entitlements/offers/offer-lifecycle.ts";
import { createOffer } from "../../../server/domain/entitlements/offers/write-offer.ts";
import { ZOfferWriteRequest } from "../../../server/domain/entitlements/offers/offer.schemas.ts";
import { createRatingCampaign } from "../../../server/domain/catalog/rating-campaigns/create-rating-campaign.ts";
import { ZRatingCampaignCreateRequest } from "../../../server/domain/catalog/rating-campaigns/rating-campaign.schemas.ts";
import type { DomainContext } from "../../../server/domain/context.ts";
import { sectionNames } from "../../../server/domain/portability/snapshot/sections.ts";
import { EXPORT, everything, exportCatalog, seedDemoCatalog, uuidsIn } from "./portability-fixtures.ts";

type Snapshot = {
  formatVersion: string;
  exportedAt: string;
  sourceTenantId: string;
  scope: string[];
  counts: Record<string, number>;
  references: Record<
    string,
    { kind: string; naturalKey: Record<string, string>; presence: string; referencedBy: string[] }
  >;
  warnings: { code: string; key: string; message: string }[];
  sections: Record<string, { id: string; [k: string]: any }[]>;
};

let tenant: TestTenant;
let token: string;
let ctx: DomainContext;
let ids: {
  studio: string;
  sync: string;
  suite: string;
  planSet: string;
  addOn: string;
  offer: string;
  campaign: string;
  seats: string;
  apiCalls: string;
  aiCreditsAsset: string;
  apiCallsAsset: string;
};

const only = (section: string, sectionIds: string[], includeDependencies = true) => ({
  [section]: { mode: "Ids", ids: sectionIds },
  includeDependencies,
});
const sectionIds = (snapshot: Snapshot, section: string) =>
  snapshot.sections[section].map((i) => i.id).sort();

beforeAll(async () => {
  tenant = await createTestTenant("Export vendor");
  token = await tenant.token("provision.catalog.*");
  ctx = await seedDemoCatalog(tenant);
  const product = (code: string) => ctx.db.product.findFirstOrThrow({ where: { productCode: code } });
  const entry = (code: string) =>
    ctx.db.featureCatalogEntry.findFirstOrThrow({ where: { featureCode: code } });
  const asset = (metricName: string, productId: string) =>
    ctx.db.monitoredAsset.findFirstOrThrow({ where: { metricName, ownerId: productId } });
  const studio = await product("STUDIO");
  const sync = await product("STUDIO-SYNC");
  ids = {
    studio: studio.id,
    sync: sync.id,
    suite: (await ctx.db.suite.findFirstOrThrow({ where: { code: "STUDIO-SUITE" } })).id,
    planSet: (await ctx.db.usagePlanSet.findFirstOrThrow({})).id,
    addOn: (await ctx.db.addOn.findFirstOrThrow({ where: { code: "POWER-PACK" } })).id,
    offer: (await ctx.db.offer.findFirstOrThrow({})).id,
    campaign: (await ctx.db.ratingCampaign.findFirstOrThrow({})).id,
    seats: (await entry("SEATS")).id,
    apiCalls: (await entry("API_CALLS")).id,
    aiCreditsAsset: (await asset("ai-credits", studio.id)).id,
    apiCallsAsset: (await asset("api-calls", studio.id)).id,
  };
});

describe("POST /admin/catalog/export: the envelope", () => {
  it("carries formatVersion (semver), exportedAt, sourceTenantId, scope and counts of every section", async () => {
    const snapshot: Snapshot = await exportCatalog(token, everything());
    expect(snapshot.formatVersion).toMatch(/^1\.\d+\.\d+$/);
    expect(Date.parse(snapshot.exportedAt)).not.toBeNaN();
    expect(snapshot.sourceTenantId).toBe(tenant.tenantId);
    expect(snapshot.scope).toEqual([
      "tags",
      "products",
      "featureCatalog",
      "monitoredAssets",
      "suites",
      "plans",
      "addOns",
      "entitlementOffers",
      "ratingCampaigns",
    ]);
    for (const section of sectionNames)
      expect(snapshot.counts[section]).toBe(snapshot.sections[section].length);
    expect(snapshot.counts).toMatchObject({
      products: 2,
      suites: 1,
      plans: 1,
      addOns: 1,
      entitlementOffers: 1,
    });
  });

  it("echoes a product's monitored assets for reading, without ids; the assets themselves are in monitoredAssets", async () => {
    const snapshot: Snapshot = await exportCatalog(token, {
      products: { mode: "Ids", ids: [ids.studio] },
      includeDependencies: false,
    });
    const studio = snapshot.sections.products[0];
    expect(studio.monitoredAssets.map((a: { metricName: string }) => a.metricName).sort()).toEqual([
      "ai-credits",
      "api-calls",
    ]);
    expect(uuidsIn(studio.monitoredAssets).size).toBe(0);
    expect(snapshot.sections.monitoredAssets).toEqual([]);
  });

  it("a request selecting nothing is refused with catalog.empty_selection (every section None, or Ids without ids)", async () => {
    expectProblem(await request("POST", EXPORT, { token, body: {} }), 400, "catalog.empty_selection");
    expectProblem(
      await request("POST", EXPORT, {
        token,
        body: { products: { mode: "Ids", ids: [] }, tags: { mode: "None" } },
      }),
      400,
      "catalog.empty_selection",
    );
  });

  it("mode Ids needs ids, ids need mode Ids, and unknown sections are refused (400 license.validation_error)", async () => {
    expectProblem(
      await request("POST", EXPORT, { token, body: { products: { mode: "Ids" } } }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("POST", EXPORT, { token, body: { products: { mode: "All", ids: [ids.studio] } } }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("POST", EXPORT, { token, body: { product: { mode: "All" } } }),
      400,
      "license.validation_error",
    );
  });

  it("selected ids that name nothing (or another tenant's records) answer 404 and say which", async () => {
    const other = await createTestTenant("Export other vendor");
    const otherCtx = await seedDemoCatalog(other);
    const foreign = await otherCtx.db.product.findFirstOrThrow({});
    const res = await request("POST", EXPORT, {
      token,
      body: { products: { mode: "Ids", ids: [foreign.id, randomUUID()] } },
    });
    expectProblem(res, 404, "license.not_found");
    expect(res.body.errors).toHaveLength(2);
  });

  it("needs provision.catalog.read (401 without a token, 403 with another scope)", async () => {
    expectProblem(await request("POST", EXPORT, { body: everything() }), 401, "auth.unauthenticated");
    const wrong = await tenant.token("provision.product.*");
    expectProblem(
      await request("POST", EXPORT, { token: wrong, body: everything() }),
      403,
      "auth.insufficient_scope",
    );
    const readOnly = await tenant.token("provision.catalog.read");
    expect((await request("POST", EXPORT, { token: readOnly, body: everything() })).status).toBe(200);
  });
});

describe("POST /admin/catalog/export: dependency closure (includeDependencies true, the default)", () => {
  it("an add-on pulls in its suite, the suite's plan sets, their products and the catalog entries it grants", async () => {
    const snapshot: Snapshot = await exportCatalog(token, only("addOns", [ids.addOn]));
    expect(sectionIds(snapshot, "addOns")).toEqual([ids.addOn]);
    expect(sectionIds(snapshot, "suites")).toEqual([ids.suite]);
    expect(sectionIds(snapshot, "plans")).toEqual([ids.planSet]);
    expect(sectionIds(snapshot, "products")).toEqual([ids.studio, ids.sync].sort());
    expect(snapshot.sections.featureCatalog.map((f) => f.featureCode)).toEqual(
      expect.arrayContaining(["SEATS", "API_CALLS", "SSO"]),
    );
    expect(snapshot.references[ids.addOn].presence).toBe("Explicit");
    expect(snapshot.references[ids.suite]).toMatchObject({
      kind: "Suite",
      presence: "Dependency",
      naturalKey: { code: "STUDIO-SUITE" },
      referencedBy: expect.arrayContaining(["addOns/POWER-PACK.suiteId", "plans/2027 plans.suiteId"]),
    });
    expect(snapshot.scope).toEqual(
      expect.arrayContaining(["addOns", "suites", "plans", "products", "featureCatalog"]),
    );
  });

  it("a plan set pulls in its suite, the products of its line items, the entries of its feature values and the credit balances its tiers charge", async () => {
    const snapshot: Snapshot = await exportCatalog(token, only("plans", [ids.planSet]));
    expect(sectionIds(snapshot, "suites")).toEqual([ids.suite]);
    expect(sectionIds(snapshot, "products")).toEqual([ids.studio, ids.sync].sort());
    expect(snapshot.sections.featureCatalog.map((f) => f.featureCode)).toEqual(
      expect.arrayContaining(["SEATS", "API_CALLS", "AI_CREDITS", "SUPPORT_TIER", "SSO"]),
    );
    expect(sectionIds(snapshot, "monitoredAssets")).toContain(ids.aiCreditsAsset);
    expect(snapshot.references[ids.aiCreditsAsset]).toMatchObject({
      kind: "MonitoredAsset",
      naturalKey: { productCode: "STUDIO", metricName: "ai-credits" },
      presence: "Dependency",
    });
    expect(sectionIds(snapshot, "addOns")).toEqual([]);
  });

  it("a product pulls in its features' catalog entries, its tags and its monitored assets (issue 21 item 8)", async () => {
    const snapshot: Snapshot = await exportCatalog(token, only("products", [ids.studio]));
    expect(sectionIds(snapshot, "products")).toEqual([ids.studio]);
    expect(snapshot.sections.featureCatalog.map((f) => f.featureCode).sort()).toEqual(
      ["AI_CREDITS", "API_CALLS", "EXPORT_PDF", "SEATS", "SUPPORT_TIER"].sort(),
    );
    expect(snapshot.references[ids.seats]).toMatchObject({
      kind: "FeatureCatalogEntry",
      presence: "Dependency",
      referencedBy: ["products/STUDIO@2.1.features"],
    });
    expect(snapshot.sections.tags.map((t) => `${t.scope}:${t.name}`)).toEqual(
      expect.arrayContaining(["Product:Desktop", "FeatureCatalog:Premium"]),
    );
    expect(sectionIds(snapshot, "monitoredAssets")).toEqual([ids.aiCreditsAsset, ids.apiCallsAsset].sort());
    expect(snapshot.references[ids.apiCallsAsset]).toMatchObject({
      presence: "Dependency",
      referencedBy: ["products/STUDIO@2.1.monitoredAssets"],
    });
  });

  it("a monitored asset pulls in its product and the balance its tiers charge", async () => {
    const snapshot: Snapshot = await exportCatalog(token, only("monitoredAssets", [ids.apiCallsAsset]));
    expect(sectionIds(snapshot, "monitoredAssets")).toEqual([ids.aiCreditsAsset, ids.apiCallsAsset].sort());
    expect(sectionIds(snapshot, "products")).toEqual([ids.studio]);
    expect(snapshot.references[ids.aiCreditsAsset].referencedBy).toEqual([
      "monitoredAssets/STUDIO@2.1/api-calls.meteredUsage.usageTiers.fundingBalanceMetric",
      "products/STUDIO@2.1.monitoredAssets",
    ]);
  });

  it("a suite pulls in its member products; a catalog entry nothing else", async () => {
    const suite: Snapshot = await exportCatalog(token, only("suites", [ids.suite]));
    expect(sectionIds(suite, "products")).toEqual([ids.studio, ids.sync].sort());
    expect(sectionIds(suite, "plans")).toEqual([]);
    const entry: Snapshot = await exportCatalog(token, only("featureCatalog", [ids.seats]));
    expect(sectionIds(entry, "featureCatalog")).toEqual([ids.seats]);
    expect(sectionIds(entry, "products")).toEqual([]);
  });

  it("an offer pulls in its products and its plan set (with that plan set's own dependencies)", async () => {
    const snapshot: Snapshot = await exportCatalog(token, only("entitlementOffers", [ids.offer]));
    expect(sectionIds(snapshot, "entitlementOffers")).toEqual([ids.offer]);
    expect(sectionIds(snapshot, "plans")).toEqual([ids.planSet]);
    expect(sectionIds(snapshot, "suites")).toEqual([ids.suite]);
    expect(sectionIds(snapshot, "products")).toEqual([ids.studio, ids.sync].sort());
  });

  it("a rating campaign pulls in its targeted catalog entries and the offers it asks about", async () => {
    const withOffer = await createRatingCampaign(
      ctx,
      ZRatingCampaignCreateRequest.parse({
        name: "Offer feedback",
        targets: [{ featureCatalogId: ids.seats }],
        offers: [{ offerId: ids.offer }],
      }),
    );
    const snapshot: Snapshot = await exportCatalog(token, only("ratingCampaigns", [withOffer.id]));
    expect(sectionIds(snapshot, "featureCatalog")).toContain(ids.seats);
    expect(sectionIds(snapshot, "entitlementOffers")).toEqual([ids.offer]);
    expect(snapshot.references[ids.offer].referencedBy).toEqual(["ratingCampaigns/Offer feedback.offerIds"]);
  });
});

describe("POST /admin/catalog/export: the strict slice and the references map", () => {
  it("includeDependencies false exports exactly the selection; what it refers to is listed as Excluded with its natural key", async () => {
    const snapshot: Snapshot = await exportCatalog(token, only("addOns", [ids.addOn], false));
    for (const section of sectionNames)
      expect(snapshot.counts[section], section).toBe(section === "addOns" ? 1 : 0);
    expect(snapshot.scope).toEqual(["addOns"]);
    expect(snapshot.references[ids.suite]).toEqual({
      kind: "Suite",
      naturalKey: { code: "STUDIO-SUITE" },
      presence: "Excluded",
      referencedBy: ["addOns/POWER-PACK.suiteId"],
    });
    expect(snapshot.warnings).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: "excluded-reference", key: "Suite" })]),
    );
  });

  it("every id in the file has a references entry, present or not; ids selected directly are Explicit with no provenance", async () => {
    for (const body of [
      everything(),
      only("ratingCampaigns", [ids.campaign], false),
      only("plans", [ids.planSet], false),
    ]) {
      const snapshot: Snapshot = await exportCatalog(token, body);
      const missing = [...uuidsIn(snapshot.sections)].filter((id) => !snapshot.references[id]);
      expect(missing).toEqual([]);
      for (const [id, ref] of Object.entries(snapshot.references)) {
        if (ref.presence === "Explicit") expect(ref.referencedBy, id).toEqual([]);
        else expect(ref.referencedBy.length, id).toBeGreaterThan(0);
      }
    }
  });

  it("natural keys carry the fields of their kind: products code and version, entries featureCode, plan sets suite code, name and revision", async () => {
    const snapshot: Snapshot = await exportCatalog(token, only("plans", [ids.planSet], false));
    expect(snapshot.references[ids.studio].naturalKey).toEqual({
      productCode: "STUDIO",
      productVersion: "2.1",
    });
    expect(snapshot.references[ids.planSet].naturalKey).toEqual({
      code: "STUDIO-SUITE",
      name: "2027 plans",
      version: "1",
    });
    expect(snapshot.references[ids.apiCalls].naturalKey).toEqual({ featureCode: "API_CALLS" });
  });

  it("a reference to a record that no longer exists is Missing, with a missing-reference warning that does not block", async () => {
    const draft = await createOffer(ctx, ZOfferWriteRequest.parse({ name: "Short-lived offer" }));
    const campaign = await createRatingCampaign(
      ctx,
      ZRatingCampaignCreateRequest.parse({ name: "Orphaned campaign", offers: [{ offerId: draft.id }] }),
    );
    await deleteOffer(ctx, draft.id);
    const snapshot: Snapshot = await exportCatalog(token, only("ratingCampaigns", [campaign.id]));
    expect(snapshot.references[draft.id]).toEqual({
      kind: "Offer",
      naturalKey: {},
      presence: "Missing",
      referencedBy: ["ratingCampaigns/Orphaned campaign.offerIds"],
    });
    expect(snapshot.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: "missing-reference", key: `Offer:${draft.id}` }),
      ]),
    );
  });

  it("items of a section sharing a business key raise ambiguous-natural-key, and the export still succeeds", async () => {
    await createOffer(ctx, ZOfferWriteRequest.parse({ name: "Twin offer" }));
    await createOffer(ctx, ZOfferWriteRequest.parse({ name: "Twin offer" }));
    const snapshot: Snapshot = await exportCatalog(token, { entitlementOffers: { mode: "All" } });
    expect(snapshot.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: "ambiguous-natural-key", key: "entitlementOffers/Twin offer" }),
      ]),
    );
  });
});
