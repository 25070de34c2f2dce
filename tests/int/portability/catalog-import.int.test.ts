import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, type TestTenant } from "../../helpers/api.ts";
import type { DomainContext } from "../../../server/domain/context.ts";
import { createProduct } from "../../../server/domain/catalog/products/create-product.ts";
import { updateProduct } from "../../../server/domain/catalog/products/update-product.ts";
import { createFeatureCatalogEntry } from "../../../server/domain/catalog/feature-catalog/create-feature-catalog-entry.ts";
import { addProductFeature } from "../../../server/domain/catalog/products/add-product-feature.ts";
import { createMonitoredAsset } from "../../../server/domain/catalog/monitored-assets/create-monitored-asset.ts";
import {
  ZProductCreateRequest,
  ZProductFeatureCreateRequest,
} from "../../../server/domain/catalog/products/product.schemas.ts";
import { ZFeatureCatalogCreateRequest } from "../../../server/domain/catalog/feature-catalog/feature-catalog.schemas.ts";
import { ZMonitoredAssetCreateRequest } from "../../../server/domain/catalog/monitored-assets/monitored-asset.schemas.ts";
import {
  catalogChecksums,
  domainContext,
  everything,
  exportCatalog,
  importCatalog,
  importOk,
  IMPORT,
  itemOf,
  sectionOf,
  seedDemoCatalog,
  withoutIds,
} from "./portability-fixtures.ts";

let source: TestTenant;
let sourceToken: string;
/** Everything of the seeded source tenant, exported once. */
let full: any;

async function target(name: string) {
  const tenant = await createTestTenant(name);
  return { tenant, ctx: domainContext(tenant.tenantId), token: await tenant.token("provision.catalog.*") };
}

const makeProduct = (ctx: DomainContext, fields: Record<string, unknown>) =>
  createProduct(ctx, ZProductCreateRequest.parse({ name: "Product", ...fields }));

beforeAll(async () => {
  source = await createTestTenant("Import source");
  sourceToken = await source.token("provision.catalog.*");
  await seedDemoCatalog(source);
  full = await exportCatalog(sourceToken, everything());
});

describe("round trip", () => {
  it("export everything from a seeded tenant, import into an empty tenant, export again: equal but for ids, timestamps and sourceTenantId", async () => {
    const b = await target("Round trip target");
    const result = await importOk(b.token, full);
    for (const section of result.sections) {
      expect(section.skipped, `${section.section}: ${JSON.stringify(section.items)}`).toBe(0);
      expect(section.created).toBe(full.counts[section.section]);
    }
    const again = await exportCatalog(b.token, everything());
    expect(again.sourceTenantId).toBe(b.tenant.tenantId);
    expect(withoutIds(again)).toEqual(withoutIds(full));
  });

  it("importing the same file again changes nothing: every item is skipped as unchanged", async () => {
    const b = await target("Re-import target");
    await importOk(b.token, full);
    const before = await catalogChecksums(b.tenant.tenantId);
    const result = await importOk(b.token, full);
    for (const section of result.sections)
      for (const item of section.items) {
        expect(item.action, `${section.section} ${item.key}`).toBe("Skipped");
        expect(item.reason).toMatch(/^Unchanged/);
      }
    expect(await catalogChecksums(b.tenant.tenantId)).toEqual(before);
  });

  it("the deprecated products result is the products section result", async () => {
    const b = await target("Deprecated products target");
    const result = await importOk(b.token, full, { dryRun: true });
    expect(result.products).toEqual(sectionOf(result, "products"));
    expect(result.products.created).toBe(2);
    const withoutProducts = await importOk(b.token, {
      ...full,
      scope: ["tags"],
      sections: { tags: full.sections.tags },
    });
    expect(withoutProducts.products).toMatchObject({ section: "products", created: 0, items: [] });
  });
});

describe("dry run", () => {
  it("leaves every catalog table byte-for-byte unchanged while reporting the skips the real constraint checks make", async () => {
    const b = await target("Dry-run target");
    // Conflicts only the domain rules see: a locked product, and SEATS as a Boolean whose product value
    // "true" a change to Numeric would invalidate.
    const seats = await createFeatureCatalogEntry(
      b.ctx,
      ZFeatureCatalogCreateRequest.parse({ featureCode: "SEATS", name: "Seats", featureType: "Boolean" }),
    );
    const studio = await makeProduct(b.ctx, {
      productCode: "STUDIO",
      productVersion: "2.1",
      name: "Studio (prod)",
    });
    await addProductFeature(
      b.ctx,
      studio.id,
      ZProductFeatureCreateRequest.parse({ featureCatalogId: seats.id, value: "true" }),
    );
    await updateProduct(b.ctx, studio.id, { isLocked: true });

    const before = await catalogChecksums(b.tenant.tenantId);
    const dry = await importOk(b.token, full, { dryRun: true });
    expect(await catalogChecksums(b.tenant.tenantId)).toEqual(before);
    expect(dry.dryRun).toBe(true);
    expect(itemOf(dry, "products", "STUDIO@2.1")).toMatchObject({
      action: "Skipped",
      reason: expect.stringMatching(/^product\.locked/),
    });
    expect(itemOf(dry, "featureCatalog", "SEATS")).toMatchObject({
      action: "Skipped",
      reason: expect.stringMatching(/^license\.validation_error.*invalidate/),
    });
    expect(itemOf(dry, "plans", "2027 plans")).toMatchObject({
      action: "Skipped",
      reason: expect.stringMatching(/^license\.validation_error/),
    });
    expect(itemOf(dry, "products", "STUDIO-SYNC@1.0").action).toBe("Created");

    // Applying makes exactly the decisions the dry run reported.
    const applied = await importOk(b.token, full);
    expect(applied.dryRun).toBe(false);
    const decisions = (r: any) =>
      r.sections.map((s: any) => s.items.map((i: any) => [s.section, i.key, i.action, i.reason]));
    expect(decisions(applied)).toEqual(decisions(dry));
    expect(await catalogChecksums(b.tenant.tenantId)).not.toEqual(before);
  });
});

describe("conflict modes", () => {
  const productsFile = () => ({
    ...full,
    scope: ["tags", "products", "featureCatalog"],
    sections: {
      tags: full.sections.tags,
      products: full.sections.products,
      featureCatalog: full.sections.featureCatalog,
    },
  });

  it("CreateOnly creates what is missing and skips what exists, unchanged", async () => {
    const b = await target("CreateOnly target");
    const studio = await makeProduct(b.ctx, {
      productCode: "STUDIO",
      productVersion: "2.1",
      description: "Prod copy",
    });
    const result = await importOk(b.token, productsFile(), { conflictMode: "CreateOnly" });
    expect(result.conflictMode).toBe("CreateOnly");
    expect(itemOf(result, "products", "STUDIO@2.1")).toMatchObject({
      action: "Skipped",
      reason: expect.stringContaining("CreateOnly"),
    });
    expect(itemOf(result, "products", "STUDIO-SYNC@1.0").action).toBe("Created");
    expect((await b.ctx.db.product.findUniqueOrThrow({ where: { id: studio.id } })).description).toBe(
      "Prod copy",
    );
  });

  it("UpdateOnly updates what exists and skips what is missing", async () => {
    const b = await target("UpdateOnly target");
    const studio = await makeProduct(b.ctx, {
      productCode: "STUDIO",
      productVersion: "2.1",
      description: "Prod copy",
    });
    const result = await importOk(b.token, productsFile(), { conflictMode: "UpdateOnly" });
    expect(itemOf(result, "products", "STUDIO@2.1").action).toBe("Updated");
    expect(itemOf(result, "products", "STUDIO-SYNC@1.0")).toMatchObject({
      action: "Skipped",
      reason: expect.stringContaining("UpdateOnly"),
    });
    const sourceStudio = full.sections.products.find((p: any) => p.productCode === "STUDIO");
    expect((await b.ctx.db.product.findUniqueOrThrow({ where: { id: studio.id } })).description).toBe(
      sourceStudio.description,
    );
    expect(await b.ctx.db.product.count({ where: { productCode: "STUDIO-SYNC" } })).toBe(0);
  });

  it("CreateOrUpdate (the default) does both", async () => {
    const b = await target("CreateOrUpdate target");
    await makeProduct(b.ctx, { productCode: "STUDIO", productVersion: "2.1", description: "Prod copy" });
    const result = await importOk(b.token, productsFile());
    expect(result.conflictMode).toBe("CreateOrUpdate");
    expect(itemOf(result, "products", "STUDIO@2.1").action).toBe("Updated");
    expect(itemOf(result, "products", "STUDIO-SYNC@1.0").action).toBe("Created");
  });

  it("an invalid conflictMode is a 400", async () => {
    const b = await target("Bad mode target");
    expectProblem(
      await importCatalog(b.token, full, { conflictMode: "Overwrite" }),
      400,
      "license.validation_error",
    );
  });
});

describe("an existing product", () => {
  it("keeps its features and monitored assets: the file's values never overwrite them, only what it lacks is added", async () => {
    const b = await target("Existing product target");
    const seats = await createFeatureCatalogEntry(
      b.ctx,
      ZFeatureCatalogCreateRequest.parse({
        featureCode: "SEATS",
        name: "Seats",
        featureType: "Numeric",
        lifecycleStatus: "Published",
      }),
    );
    const studio = await makeProduct(b.ctx, { productCode: "STUDIO", productVersion: "2.1", name: "Studio" });
    await addProductFeature(
      b.ctx,
      studio.id,
      ZProductFeatureCreateRequest.parse({ featureCatalogId: seats.id, value: "1", name: "Seats (prod)" }),
    );
    await createMonitoredAsset(
      b.ctx,
      studio.id,
      ZMonitoredAssetCreateRequest.parse({
        metricName: "ai-credits",
        name: "Prod credits",
        balanceUsage: { name: "Prod", initialCreditAmount: 5 },
      }),
    );
    const result = await importOk(b.token, full);

    const features = await b.ctx.db.productFeature.findMany({
      where: { productId: studio.id, isDeleted: false },
      include: { featureCatalog: true },
      orderBy: { sortOrder: "asc" },
    });
    const seatsFeature = features.find((f) => f.featureCatalog.featureCode === "SEATS")!;
    expect(seatsFeature).toMatchObject({ value: "1", name: "Seats (prod)", sortOrder: 1 });
    expect(features.map((f) => f.featureCatalog.featureCode)).toEqual([
      "SEATS",
      "SUPPORT_TIER",
      "EXPORT_PDF",
      "API_CALLS",
      "AI_CREDITS",
    ]);
    expect(itemOf(result, "products", "STUDIO@2.1").reason).toContain(
      "1 existing feature(s) kept as they are",
    );

    const credits = await b.ctx.db.monitoredAsset.findFirstOrThrow({
      where: { ownerId: studio.id, metricName: "ai-credits" },
      include: { balanceUsages: true },
    });
    expect(credits.name).toBe("Prod credits");
    expect(credits.balanceUsages[0].initialCreditAmount.toNumber()).toBe(5);
    expect(itemOf(result, "monitoredAssets", "STUDIO@2.1/ai-credits")).toMatchObject({
      action: "Skipped",
      reason: "An existing product's monitored assets are not overwritten.",
    });
    expect(itemOf(result, "monitoredAssets", "STUDIO@2.1/api-calls").action).toBe("Created");
  });
  it("is skipped when the features it lacks cannot be attached because it is locked (nothing else differs)", async () => {
    const b = await target("Locked product target");
    const sourceSync = full.sections.products.find((p: any) => p.productCode === "STUDIO-SYNC");
    const sync = await makeProduct(b.ctx, {
      productCode: "STUDIO-SYNC",
      productVersion: "1.0",
      name: sourceSync.name,
      description: sourceSync.description,
      status: sourceSync.status,
      tags: sourceSync.tags,
      propertyValues: sourceSync.propertyValues,
      applicationScopes: sourceSync.applicationScopes,
      isLocked: true,
    });
    const file = {
      ...full,
      scope: ["products", "featureCatalog"],
      sections: { products: [sourceSync], featureCatalog: full.sections.featureCatalog },
    };
    const result = await importOk(b.token, file);
    expect(itemOf(result, "products", "STUDIO-SYNC@1.0")).toMatchObject({
      action: "Skipped",
      reason: expect.stringContaining("product.locked"),
    });
    expect(sectionOf(result, "products")).toMatchObject({ updated: 0, skipped: 1 });
    expect(await b.ctx.db.productFeature.count({ where: { productId: sync.id } })).toBe(0);
  });
});

describe("formatVersion", () => {
  it("a major version this service does not read is refused with catalog.unsupported_format_version, and nothing changes", async () => {
    const b = await target("Future format target");
    const before = await catalogChecksums(b.tenant.tenantId);
    expectProblem(
      await importCatalog(b.token, { ...full, formatVersion: "2.0.0" }),
      400,
      "catalog.unsupported_format_version",
    );
    // Whatever else a future major changes, the version is what is checked first.
    expectProblem(
      await importCatalog(b.token, { formatVersion: "3.1.0", sections: { products: { byCode: {} } } }),
      400,
      "catalog.unsupported_format_version",
    );
    expectProblem(
      await importCatalog(b.token, { ...full, formatVersion: "one" }),
      400,
      "catalog.unsupported_format_version",
    );
    expect(await catalogChecksums(b.tenant.tenantId)).toEqual(before);
  });

  it("another minor or patch of the same major is read", async () => {
    const b = await target("Minor format target");
    const result = await importOk(b.token, { ...full, formatVersion: "1.7.3" }, { dryRun: true });
    expect(result.formatVersion).toBe("1.7.3");
  });
});

describe("comparison (query compare=true)", () => {
  it("fills onlyInTarget with the target's records the file lacks and each matched item's changes with isDifferent", async () => {
    const b = await target("Compare target");
    await makeProduct(b.ctx, { productCode: "LEGACY", productVersion: "1", name: "Legacy" });
    const sourceStudio = full.sections.products.find((p: any) => p.productCode === "STUDIO");
    await makeProduct(b.ctx, {
      productCode: "STUDIO",
      productVersion: "2.1",
      name: sourceStudio.name,
      description: "Old text",
    });
    const result = await importOk(b.token, full, { dryRun: true, compare: true });
    const products = sectionOf(result, "products");
    expect(products.onlyInTarget).toEqual(["LEGACY@1"]);
    const studio = itemOf(result, "products", "STUDIO@2.1");
    expect(studio.action).toBe("Updated");
    expect(studio.changes.find((c) => c.field === "description")).toEqual({
      field: "description",
      current: "Old text",
      incoming: sourceStudio.description,
      isDifferent: true,
    });
    expect(studio.changes.find((c) => c.field === "name")).toMatchObject({
      current: sourceStudio.name,
      isDifferent: false,
    });
    expect(itemOf(result, "products", "STUDIO-SYNC@1.0")).toMatchObject({ action: "Created", changes: [] });

    const plain = await importOk(b.token, full, { dryRun: true });
    expect(sectionOf(plain, "products").onlyInTarget).toEqual([]);
    expect(itemOf(plain, "products", "STUDIO@2.1").changes).toEqual([]);
  });
});

describe("selective apply (body field apply)", () => {
  it("applies only the listed business keys and skips every other item with a reason", async () => {
    const b = await target("Selective target");
    const result = await importOk(b.token, {
      ...full,
      apply: { products: ["STUDIO-SYNC@1.0"], featureCatalog: ["SSO", "THEME"], tags: ["Product:Server"] },
    });
    expect(itemOf(result, "products", "STUDIO-SYNC@1.0").action).toBe("Created");
    expect(itemOf(result, "products", "STUDIO@2.1")).toMatchObject({
      action: "Skipped",
      reason: "Not selected for apply.",
    });
    expect(sectionOf(result, "featureCatalog").created).toBe(2);
    for (const section of [
      "suites",
      "plans",
      "addOns",
      "entitlementOffers",
      "ratingCampaigns",
      "monitoredAssets",
    ])
      for (const item of sectionOf(result, section).items)
        expect(item).toMatchObject({ action: "Skipped", reason: "Not selected for apply." });
    const sync = await b.ctx.db.product.findFirstOrThrow({
      where: { productCode: "STUDIO-SYNC" },
      include: { features: { include: { featureCatalog: true } } },
    });
    expect(sync.features.map((f) => f.featureCatalog.featureCode).sort()).toEqual(["SSO", "THEME"]);
    expect(await b.ctx.db.product.count()).toBe(1);
  });

  it("a key that names no item of the file is refused with catalog.unknown_apply_keys, and nothing changes", async () => {
    const b = await target("Selective typo target");
    const res = await importCatalog(b.token, { ...full, apply: { products: ["STUDIO@2.2"] } });
    expectProblem(res, 400, "catalog.unknown_apply_keys");
    expect(res.body.errors[0].path).toBe("apply.products");
    expect(await b.ctx.db.product.count()).toBe(0);
  });
});

describe("tenant isolation", () => {
  it("an import never reads or touches another tenant: the source's tables stay as they were and nothing links to its ids", async () => {
    const b = await target("Isolation target");
    const sourceBefore = await catalogChecksums(source.tenantId);
    // A strict slice: the add-on names the source's suite only by id (and natural key).
    const addOnOnly = await exportCatalog(sourceToken, {
      addOns: { mode: "Ids", ids: [full.sections.addOns[0].id] },
      includeDependencies: false,
    });
    const sliced = await importOk(b.token, addOnOnly);
    expect(itemOf(sliced, "addOns", "POWER-PACK")).toMatchObject({
      action: "Skipped",
      reason: "Its suite STUDIO-SUITE is not in the target.",
    });
    await importOk(b.token, full);
    expect(await catalogChecksums(source.tenantId)).toEqual(sourceBefore);
    const sourceIds = new Set(Object.keys(full.references));
    const suite = await b.ctx.db.suite.findFirstOrThrow({ include: { members: true } });
    const addOn = await b.ctx.db.addOn.findFirstOrThrow({});
    expect(sourceIds.has(suite.id)).toBe(false);
    expect(suite.members.some((m) => sourceIds.has(m.productId))).toBe(false);
    expect(sourceIds.has(addOn.suiteId)).toBe(false);
    expect(addOn.featureCatalogIds.some((id) => sourceIds.has(id))).toBe(false);
  });
});

describe("plan sets", () => {
  it("an update of a published revision lands on a new draft revision, published again because the file says Published", async () => {
    const b = await target("Plan update target");
    await importOk(b.token, full);
    const changed = structuredClone(full);
    changed.sections.plans[0].description = "Plans for 2027, revised";
    const result = await importOk(b.token, changed, { compare: true });
    const item = itemOf(result, "plans", "2027 plans");
    expect(item.action).toBe("Updated");
    expect(item.reason).toContain("never edited");
    expect(item.reason).toContain("archived the suite's previously published revision r1");
    const revisions = await b.ctx.db.usagePlanSet.findMany({ orderBy: { revision: "asc" } });
    expect(revisions.map((r) => [r.revision, r.status, r.description])).toEqual([
      [1, "Archived", full.sections.plans[0].description],
      [2, "Published", "Plans for 2027, revised"],
    ]);
  });

  it("a draft revision in the target is edited in place", async () => {
    const b = await target("Plan draft target");
    const upToPlans = ["tags", "products", "featureCatalog", "monitoredAssets", "suites", "plans"];
    const file = structuredClone({
      ...full,
      scope: upToPlans,
      sections: Object.fromEntries(upToPlans.map((s) => [s, full.sections[s]])),
    });
    file.sections.plans[0].status = "Draft";
    await importOk(b.token, file);
    const draft = await b.ctx.db.usagePlanSet.findFirstOrThrow({});
    file.sections.plans[0].description = "edited draft";
    const result = await importOk(b.token, file);
    expect(itemOf(result, "plans", "2027 plans")).toMatchObject({ action: "Updated", reason: null });
    const revisions = await b.ctx.db.usagePlanSet.findMany({});
    expect(revisions.map((r) => [r.id, r.revision, r.status, r.description])).toEqual([
      [draft.id, 1, "Draft", "edited draft"],
    ]);
  });
});

describe("unusableMetricNames", () => {
  it("lists the metric names imported items rely on that no monitored asset in the target has", async () => {
    const b = await target("Unusable metrics target");
    const apiCalls = full.sections.featureCatalog.find((f: any) => f.featureCode === "API_CALLS");
    const sliced = await exportCatalog(sourceToken, {
      featureCatalog: { mode: "Ids", ids: [apiCalls.id] },
      includeDependencies: false,
    });
    const result = await importOk(b.token, sliced);
    expect(itemOf(result, "featureCatalog", "API_CALLS").action).toBe("Created");
    expect(sectionOf(result, "featureCatalog").unusableMetricNames).toEqual(["api-calls"]);
    const withAssets = await importOk(b.token, full, { dryRun: true });
    expect(sectionOf(withAssets, "featureCatalog").unusableMetricNames).toEqual([]);
  });
});

describe("POST /admin/catalog/import: access and input", () => {
  it("needs provision.catalog.create (401 without a token, 403 with another scope)", async () => {
    expectProblem(await request("POST", IMPORT, { body: full }), 401, "auth.unauthenticated");
    const wrong = await source.token("provision.catalog.read");
    expectProblem(
      await request("POST", IMPORT, { token: wrong, body: full }),
      403,
      "auth.insufficient_scope",
    );
  });

  it("an item that does not read is skipped with its problems; the rest is imported", async () => {
    const b = await target("Invalid item target");
    const file = {
      ...full,
      scope: ["products"],
      sections: {
        products: [{ id: full.sections.products[0].id, name: "No code" }, full.sections.products[1]],
      },
    };
    const result = await importOk(b.token, file, { dryRun: true });
    expect(sectionOf(result, "products").items[0]).toMatchObject({
      action: "Skipped",
      reason: expect.stringMatching(/^Invalid item: productCode/),
    });
    expect(sectionOf(result, "products").items[1].action).toBe("Created");
  });

  it("the OpenAPI document shows both endpoints, the compare query parameter and the apply body field", async () => {
    const doc = (await request("GET", "/api/v1/openapi.json")).body;
    const exportOp = doc.paths["/api/v1/provision/admin/catalog/export"].post;
    const importOp = doc.paths["/api/v1/provision/admin/catalog/import"].post;
    expect(exportOp["x-required-scope"]).toBe("provision.catalog.read");
    expect(importOp["x-required-scope"]).toBe("provision.catalog.create");
    expect(importOp.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["dryRun", "conflictMode", "compare"]),
    );
    expect(importOp.requestBody.content["application/json"].schema.properties.apply).toBeDefined();
    const codes = importOp.responses["400"]["x-problem-codes"].map((c: { codeName: string }) => c.codeName);
    expect(codes).toEqual(
      expect.arrayContaining(["catalog.unsupported_format_version", "catalog.unknown_apply_keys"]),
    );
    expect(
      exportOp.responses["400"]["x-problem-codes"].map((c: { codeName: string }) => c.codeName),
    ).toContain("catalog.empty_selection");
  });
});
