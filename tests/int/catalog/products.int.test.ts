import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, type TestTenant } from "../../helpers/api.ts";
import {
  FEATURES,
  PRODUCTS,
  makeAsset,
  makeFeature,
  makeProduct,
  uniqueCode,
} from "../../helpers/catalog-products.ts";
import { SUITES, basicPlanSet, makeEntitlement, makeOffer } from "../../helpers/entitlements.ts";
import { ALL_PROVISION_SCOPES, made } from "../../helpers/tenant-world.ts";

const productKeys = [
  "id",
  "status",
  "providerId",
  "name",
  "description",
  "productCode",
  "productVersion",
  "expirationDate",
  "externalId",
  "tags",
  "features",
  "monitoredAssets",
  "metrics",
  "propertyValues",
  "isDeleted",
  "createdAt",
  "updatedAt",
  "revisionNumber",
  "isLocked",
  "applicationScopes",
  "parentProductId",
  "referencedBy",
];
const productFeatureKeys = [
  "id",
  "productId",
  "featureCatalogId",
  "featureCode",
  "moduleName",
  "name",
  "description",
  "usageMetric",
  "units",
  "featureType",
  "enumOptions",
  "value",
  "isEnabled",
  "includeInLicenseToken",
  "isAvailableDuringTrialPeriod",
  "isAvailableDuringGracePeriod",
  "isPaidFeature",
  "canModifyValueOnEntitlement",
  "meterAggregationType",
  "visibility",
  "catalogLifecycleStatus",
  "sortOrder",
  "isDeleted",
  "creationTimeStamp",
  "lastUpdateTimeStamp",
  "revisionNumber",
];

describe("products", () => {
  let tenant: TestTenant;
  let token: string;
  const create = (body: unknown) => request("POST", PRODUCTS, { token, body });
  const patch = (id: string, body: unknown) => request("PATCH", `${PRODUCTS}/${id}`, { token, body });
  const put = (id: string, body: unknown) => request("PUT", `${PRODUCTS}/${id}`, { token, body });
  const get = (id: string) => request("GET", `${PRODUCTS}/${id}`, { token });
  const addFeature = (id: string, body: unknown) =>
    request("POST", `${PRODUCTS}/${id}/features`, { token, body });

  beforeAll(async () => {
    tenant = await createTestTenant("Products");
    token = await tenant.token(
      "provision.product.* provision.feature-catalog.* provision.monitored-asset.* provision.tag.*",
    );
  });

  it("products: all SPEC fields are stored and returned with their exact names", async () => {
    const parent = await makeProduct(token, { name: "Parent" });
    const res = await create({
      name: "Studio Pro",
      description: "The flagship",
      productCode: "STUDIO",
      productVersion: "2.1",
      expirationDate: "2030-01-31T00:00:00Z",
      externalId: "crm-42",
      tags: ["Flagship"],
      propertyValues: {
        Edition: {
          key: "edition",
          value: "pro",
          metadata: [{ key: "source", value: "crm" }],
          visibility: "Public",
        },
      },
      isLocked: false,
      applicationScopes: ["desktop", "cli"],
      parentProductId: parent.id,
    });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...productKeys].sort());
    expect(res.body).toMatchObject({
      status: "Draft",
      providerId: tenant.tenantId,
      name: "Studio Pro",
      description: "The flagship",
      productCode: "STUDIO",
      productVersion: "2.1",
      expirationDate: "2030-01-31T00:00:00.000Z",
      externalId: "crm-42",
      tags: ["Flagship"],
      features: [],
      monitoredAssets: [],
      metrics: [],
      propertyValues: {
        Edition: {
          key: "edition",
          value: "pro",
          metadata: [{ key: "source", value: "crm" }],
          visibility: "Public",
        },
      },
      isDeleted: false,
      revisionNumber: 1,
      isLocked: false,
      applicationScopes: ["desktop", "cli"],
      parentProductId: parent.id,
      referencedBy: { entitlements: 0, offers: 0, suites: 0, planSets: 0, features: 0 },
    });
    const read = await get(res.body.id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);

    const feature = await makeFeature(token, { featureType: "Numeric", units: "seats" });
    const withFeature = await addFeature(res.body.id, {
      featureCatalogId: feature.id,
      value: "5",
      moduleName: "core",
      description: "Seats",
    });
    expect(withFeature.status, withFeature.text).toBe(200);
    expect(Object.keys(withFeature.body.features[0]).sort()).toEqual([...productFeatureKeys].sort());
    expect(withFeature.body.features[0]).toMatchObject({
      featureCatalogId: feature.id,
      featureCode: feature.featureCode,
      featureType: "Numeric",
      units: "seats",
      value: "5",
      moduleName: "core",
      name: "Feature",
      description: "Seats",
      sortOrder: 1,
      isEnabled: true,
      visibility: "Public",
      enumOptions: [],
      isDeleted: false,
      revisionNumber: 1,
    });
  });

  it("productCode + productVersion are unique per tenant (409 product.code_taken)", async () => {
    const code = uniqueCode("UNQ");
    await makeProduct(token, { productCode: code, productVersion: "1.0" });
    expect((await create({ name: "v2", productCode: code, productVersion: "2.0" })).status).toBe(201);
    expect((await create({ name: "unversioned", productCode: code, productVersion: "" })).status).toBe(201);
    expectProblem(
      await create({ name: "dup", productCode: code, productVersion: "1.0" }),
      409,
      "product.code_taken",
    );
    expectProblem(
      await create({ name: "dup case", productCode: code.toLowerCase(), productVersion: "1.0" }),
      409,
      "product.code_taken",
    );
    const other = await createTestTenant("Products other");
    const otherToken = await other.token("provision.product.*");
    expect(
      (
        await request("POST", PRODUCTS, {
          token: otherToken,
          body: { name: "same", productCode: code, productVersion: "1.0" },
        })
      ).status,
    ).toBe(201);
    const v3 = await makeProduct(token, { productCode: code, productVersion: "3.0" });
    expectProblem(await patch(v3.id, { productVersion: "2.0" }), 409, "product.code_taken");
  });

  it("productVersion is empty or one to four dot-separated numbers; prerelease and build suffixes are refused (400)", async () => {
    for (const productVersion of ["", "1", "1.2", "1.2.3", "1.2.3.4", "10.0.2024"]) {
      expect(
        (await create({ name: "ok", productCode: uniqueCode("V"), productVersion })).status,
        productVersion,
      ).toBe(201);
    }
    for (const productVersion of [
      "1.2.3.4.5",
      "1.0-beta",
      "1.0.0+build.5",
      "v1",
      "1..2",
      "1.",
      ".1",
      "1.0 rc",
    ]) {
      const res = await create({ name: "bad", productCode: uniqueCode("V"), productVersion });
      expectProblem(res, 400, "license.validation_error");
      expect(res.body.errors[0].path).toBe("body.productVersion");
    }
  });

  it("expirationDate: stored, kept by a PATCH that omits it, cleared by clearExpirationDate", async () => {
    const product = await makeProduct(token, { expirationDate: "2031-06-30T12:00:00+02:00" });
    expect(product.expirationDate).toBe("2031-06-30T10:00:00.000Z");
    expect((await patch(product.id, { name: "Renamed", expirationDate: null })).body).toMatchObject({
      name: "Renamed",
      expirationDate: "2031-06-30T10:00:00.000Z",
    });
    expect((await patch(product.id, { expirationDate: "2032-01-01T00:00:00Z" })).body.expirationDate).toBe(
      "2032-01-01T00:00:00.000Z",
    );
    expect((await patch(product.id, { clearExpirationDate: true })).body.expirationDate).toBeNull();
    expectProblem(await patch(product.id, { expirationDate: "next year" }), 400, "license.validation_error");
    expectProblem(
      await patch(product.id, { expirationDate: "2032-01-01T00:00:00Z", clearExpirationDate: true }),
      400,
      "license.validation_error",
    );
  });

  it("propertyValues: name → {key, value, metadata, visibility Public|Private}; PATCH merges by name and null removes", async () => {
    const product = await makeProduct(token, {
      propertyValues: { Tier: { value: "gold", visibility: "Public" }, Secret: { value: "x" } },
    });
    expect(product.propertyValues).toEqual({
      Tier: { key: "Tier", value: "gold", metadata: [], visibility: "Public" },
      Secret: { key: "Secret", value: "x", metadata: [], visibility: "Private" },
    });
    const merged = await patch(product.id, {
      propertyValues: {
        Secret: null,
        Region: { key: "region", value: "eu", metadata: [{ key: "a", value: "b" }], visibility: "Private" },
      },
    });
    expect(merged.body.propertyValues).toEqual({
      Tier: { key: "Tier", value: "gold", metadata: [], visibility: "Public" },
      Region: { key: "region", value: "eu", metadata: [{ key: "a", value: "b" }], visibility: "Private" },
    });
    expectProblem(
      await patch(product.id, { propertyValues: { Bad: { value: "1", visibility: "Internal" } } }),
      400,
      "license.validation_error",
    );
    const replaced = await put(product.id, {
      name: product.name,
      productCode: product.productCode,
      productVersion: "1.0",
      propertyValues: { Only: { value: "1" } },
    });
    expect(Object.keys(replaced.body.propertyValues)).toEqual(["Only"]);
  });

  it("product features are always ordered by sortOrder: append, insert at a position, move, remove closes up", async () => {
    const product = await makeProduct(token);
    const [a, b, c, d] = await Promise.all(["A", "B", "C", "D"].map((name) => makeFeature(token, { name })));
    await addFeature(product.id, { featureCatalogId: a.id });
    await addFeature(product.id, { featureCatalogId: b.id });
    const inserted = await addFeature(product.id, { featureCatalogId: c.id, sortOrder: 1 });
    expect(
      inserted.body.features.map((f: { name: string; sortOrder: number }) => [f.name, f.sortOrder]),
    ).toEqual([
      ["C", 1],
      ["A", 2],
      ["B", 3],
    ]);
    const withD = await addFeature(product.id, { featureCatalogId: d.id, sortOrder: 99 });
    expect(withD.body.features.map((f: { name: string }) => f.name)).toEqual(["C", "A", "B", "D"]);

    const featureD = withD.body.features[3];
    const moved = await request("PATCH", `${PRODUCTS}/${product.id}/features/${featureD.id}`, {
      token,
      body: { sortOrder: 2 },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(
      moved.body.features.map((f: { name: string; sortOrder: number }) => [f.name, f.sortOrder]),
    ).toEqual([
      ["C", 1],
      ["D", 2],
      ["A", 3],
      ["B", 4],
    ]);

    const featureC = moved.body.features[0];
    expect(
      (await request("DELETE", `${PRODUCTS}/${product.id}/features/${featureC.id}`, { token })).status,
    ).toBe(204);
    const read = await get(product.id);
    expect(read.body.features.map((f: { name: string; sortOrder: number }) => [f.name, f.sortOrder])).toEqual(
      [
        ["D", 1],
        ["A", 2],
        ["B", 3],
      ],
    );
    const list = await request("GET", `${PRODUCTS}?filter=id==${product.id}`, { token });
    expect(list.body.items[0].features.map((f: { name: string }) => f.name)).toEqual(["D", "A", "B"]);
    expectProblem(
      await request("DELETE", `${PRODUCTS}/${product.id}/features/${featureC.id}`, { token }),
      404,
      "license.not_found",
    );
  });

  it("parallel feature attachments keep sortOrder contiguous (1..n, no duplicates)", async () => {
    const product = await makeProduct(token);
    const entries = await Promise.all(
      Array.from({ length: 6 }, (_, i) => makeFeature(token, { name: `Parallel ${i}` })),
    );
    const results = await Promise.all(
      entries.map((e) => addFeature(product.id, { featureCatalogId: e.id, sortOrder: 1 })),
    );
    expect(results.map((r) => r.status)).toEqual(entries.map(() => 200));
    const read = await get(product.id);
    expect(read.body.features.map((f: { sortOrder: number }) => f.sortOrder)).toEqual([1, 2, 3, 4, 5, 6]);
    // The same entry attached twice at once: one wins, the other is a 409.
    const twice = await makeFeature(token);
    const racing = await Promise.all([
      addFeature(product.id, { featureCatalogId: twice.id }),
      addFeature(product.id, { featureCatalogId: twice.id }),
    ]);
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it("product feature values are validated by the catalog entry's featureType (400 on value)", async () => {
    const product = await makeProduct(token);
    const cases: [Record<string, unknown>, string[], string[]][] = [
      [{ featureType: "Boolean" }, ["true", "false"], ["yes", "TRUE", "1", ""]],
      [{ featureType: "Numeric" }, ["5", "-2.5", "1e3"], ["five", "", "Infinity", "0x10"]],
      [{ featureType: "Text" }, ["anything at all", ""], []],
      [
        {
          featureType: "Enumeration",
          enumOptions: [{ value: "basic" }, { value: "pro", description: "Pro tier" }],
        },
        ["basic", "pro"],
        ["Pro", "gold"],
      ],
      [{ featureType: "Metered", metricName: "api_calls" }, ["1000", "0"], ["-1", "lots"]],
      [{ featureType: "JsonField" }, ['{"a":1}', "[1,2]", '"s"'], ["{a:1}", "{"]],
    ];
    for (const [entry, valid, invalid] of cases) {
      const feature = await makeFeature(token, entry);
      for (const value of invalid) {
        const res = await addFeature(product.id, { featureCatalogId: feature.id, value });
        expectProblem(res, 400, "license.validation_error");
        expect(res.body.errors).toEqual([expect.objectContaining({ path: "value" })]);
      }
      const added = await addFeature(product.id, { featureCatalogId: feature.id, value: valid[0] });
      expect(added.status, `${entry.featureType} ${valid[0]}: ${added.text}`).toBe(200);
      const pf = added.body.features.find(
        (f: { featureCatalogId: string }) => f.featureCatalogId === feature.id,
      );
      for (const value of valid.slice(1)) {
        const res = await request("PATCH", `${PRODUCTS}/${product.id}/features/${pf.id}`, {
          token,
          body: { value },
        });
        expect(res.status, `${entry.featureType} ${value}: ${res.text}`).toBe(200);
      }
      for (const value of invalid) {
        expectProblem(
          await request("PATCH", `${PRODUCTS}/${product.id}/features/${pf.id}`, { token, body: { value } }),
          400,
          "license.validation_error",
        );
      }
      const cleared = await request("PATCH", `${PRODUCTS}/${product.id}/features/${pf.id}`, {
        token,
        body: { clearValue: true },
      });
      expect(cleared.body.features.find((f: { id: string }) => f.id === pf.id).value).toBeNull();
    }
    const enumFeature = (await get(product.id)).body.features.find(
      (f: { featureType: string }) => f.featureType === "Enumeration",
    );
    expect(enumFeature.enumOptions).toEqual([
      { value: "basic", description: null },
      { value: "pro", description: "Pro tier" },
    ]);
    const metered = (await get(product.id)).body.features.find(
      (f: { featureType: string }) => f.featureType === "Metered",
    );
    expect(metered.usageMetric).toBe("api_calls");
  });

  it("a catalog entry is attached once (409), Disabled/Archived entries are refused (400), unknown entries are a 400", async () => {
    const product = await makeProduct(token);
    const feature = await makeFeature(token);
    expect((await addFeature(product.id, { featureCatalogId: feature.id })).status).toBe(200);
    expectProblem(
      await addFeature(product.id, { featureCatalogId: feature.id }),
      409,
      "product.feature_already_attached",
    );
    const archived = await makeFeature(token, { lifecycleStatus: "Archived" });
    expectProblem(
      await addFeature(product.id, { featureCatalogId: archived.id }),
      400,
      "feature.not_attachable",
    );
    expectProblem(
      await addFeature(product.id, { featureCatalogId: crypto.randomUUID() }),
      400,
      "license.validation_error",
    );
  });

  it("metrics: one per monitored asset of the product (id, productId, metricName, name, description, metricType, unit, category, numberFormat)", async () => {
    const product = await makeProduct(token);
    const asset = await makeAsset(token, product.id, {
      metricName: "api_calls",
      name: "API calls",
      description: "Calls",
      unit: "calls",
      category: "Usage",
      numberFormat: "0,0",
    });
    await makeAsset(token, product.id, {
      metricName: "credits",
      name: "Credits",
      balanceUsage: { name: "Credits", initialCreditAmount: 100 },
    });
    const read = await get(product.id);
    expect(read.body.metrics).toEqual([
      {
        id: asset.id,
        productId: product.id,
        metricName: "api_calls",
        name: "API calls",
        description: "Calls",
        metricType: "CumulativeCounter",
        unit: "calls",
        category: "Usage",
        numberFormat: "0,0",
      },
      expect.objectContaining({ metricName: "credits", productId: product.id }),
    ]);
    expect(read.body.monitoredAssets.map((a: { metricName: string }) => a.metricName)).toEqual([
      "api_calls",
      "credits",
    ]);
  });

  it("referencedBy counts real references: catalog entries, suites, plan sets, entitlement and offer copies", async () => {
    const product = await makeProduct(token);
    await makeFeature(token, { productId: product.id });
    await makeFeature(token, { productId: product.id });
    // A suite of it with two plan-set revisions pricing it, and an entitlement and an offer made
    // from it (each holds a copy of its asset), all through the API.
    const admin = await tenant.token(ALL_PROVISION_SCOPES);
    const suite = made(
      await request("POST", SUITES, {
        token: admin,
        body: { code: uniqueCode("S"), name: "Suite", memberProductIds: [product.id] },
      }),
    );
    for (let revision = 0; revision < 2; revision++)
      await basicPlanSet(admin, suite.id, product.id, { publish: false });
    const asset = await makeAsset(token, product.id);
    await makeEntitlement(admin, { name: "Holds a copy", productIds: [product.id] });
    await makeOffer(admin, { name: "Holds a copy", productIds: [product.id] }, false);
    const read = await get(product.id);
    expect(read.body.referencedBy).toEqual({
      entitlements: 1,
      offers: 1,
      suites: 1,
      planSets: 2,
      features: 2,
    });
    const list = await request("GET", `${PRODUCTS}?filter=id==${product.id}`, { token });
    expect(list.body.items[0].referencedBy).toEqual(read.body.referencedBy);
    // Copies held elsewhere are not the product's own assets.
    expect(read.body.monitoredAssets.map((a: { id: string }) => a.id)).toEqual([asset.id]);
  });

  it("delete: a referenced product is refused (400 product.in_use with the counts); otherwise a soft delete that frees its code", async () => {
    const referenced = await makeProduct(token);
    const admin = await tenant.token(ALL_PROVISION_SCOPES);
    made(
      await request("POST", SUITES, {
        token: admin,
        body: { code: uniqueCode("S"), name: "Suite", memberProductIds: [referenced.id] },
      }),
    );
    const refused = await request("DELETE", `${PRODUCTS}/${referenced.id}`, { token });
    expectProblem(refused, 400, "product.in_use");
    expect(refused.body.errors).toEqual([{ path: "referencedBy.suites", message: "1" }]);
    expect((await get(referenced.id)).body.isDeleted).toBe(false);

    const product = await makeProduct(token, { tags: ["Doomed-product"] });
    await makeFeature(token, { productId: product.id });
    const del = await request("DELETE", `${PRODUCTS}/${product.id}`, { token });
    expect(del.status, del.text).toBe(204);
    expect(del.text).toBe("");
    const read = await get(product.id);
    expect(read.body).toMatchObject({ isDeleted: true, tags: [] });
    expect((await request("GET", `${PRODUCTS}?filter=id==${product.id}`, { token })).body.totalCount).toBe(0);
    expect(
      (await request("GET", `${PRODUCTS}?filter=id==${product.id}&includeDeleted=true`, { token })).body
        .totalCount,
    ).toBe(1);
    expectProblem(await request("DELETE", `${PRODUCTS}/${product.id}`, { token }), 404, "license.not_found");
    expectProblem(await patch(product.id, { name: "x" }), 404, "license.not_found");
    expectProblem(
      await addFeature(product.id, { featureCatalogId: (await makeFeature(token)).id }),
      404,
      "license.not_found",
    );
    expect(
      (
        await create({
          name: "again",
          productCode: product.productCode,
          productVersion: product.productVersion,
        })
      ).status,
    ).toBe(201);
  });

  it("tags use the Product vocabulary: null leaves them, [] clears, a list replaces, new names join the registry", async () => {
    const product = await makeProduct(token, { tags: ["Beta-p", "alpha-p", "ALPHA-P"] });
    expect(product.tags).toEqual(["alpha-p", "Beta-p"]);
    const registry = await request("GET", `/api/v1/provision/admin/tags?filter=name==Beta-p`, { token });
    expect(registry.body.items).toEqual([expect.objectContaining({ scope: "Product", usageCount: 1 })]);
    expect((await patch(product.id, { name: "kept", tags: null })).body.tags).toEqual(["alpha-p", "Beta-p"]);
    expect((await patch(product.id, { tags: ["Gamma-p"] })).body.tags).toEqual(["Gamma-p"]);
    expect((await patch(product.id, { tags: [] })).body.tags).toEqual([]);
  });

  it("status: Draft by default; Draft → Active → Deprecated → Active → Retired; other moves refused (400); Retired is final", async () => {
    const product = await makeProduct(token);
    expect(product.status).toBe("Draft");
    expectProblem(
      await patch(product.id, { status: "Deprecated" }),
      400,
      "product.invalid_status_transition",
    );
    for (const status of ["Active", "Deprecated", "Active", "Retired"]) {
      const res = await patch(product.id, { status });
      expect(res.status, res.text).toBe(200);
      expect(res.body.status).toBe(status);
    }
    for (const status of ["Draft", "Active", "Deprecated"])
      expectProblem(await patch(product.id, { status }), 400, "product.invalid_status_transition");
    expectProblem(await patch(product.id, { status: "Published" }), 400, "license.validation_error");
    const list = await request("GET", `${PRODUCTS}?filter=status==Retired,id==${product.id}`, { token });
    expect(list.body.totalCount).toBe(1);
  });

  it("isLocked: a locked product refuses edits, feature and asset changes and delete until unlocked", async () => {
    const product = await makeProduct(token, { isLocked: true });
    const feature = await makeFeature(token);
    expectProblem(await patch(product.id, { name: "x" }), 400, "product.locked");
    expectProblem(
      await put(product.id, { name: "x", productCode: product.productCode }),
      400,
      "product.locked",
    );
    expectProblem(await addFeature(product.id, { featureCatalogId: feature.id }), 400, "product.locked");
    expectProblem(
      await request("POST", `${PRODUCTS}/${product.id}/monitored-assets`, {
        token,
        body: { metricName: "m", name: "m" },
      }),
      400,
      "product.locked",
    );
    expectProblem(await request("DELETE", `${PRODUCTS}/${product.id}`, { token }), 400, "product.locked");
    const unlocked = await patch(product.id, { isLocked: false, name: "Unlocked" });
    expect(unlocked.status, unlocked.text).toBe(200);
    expect(unlocked.body).toMatchObject({ isLocked: false, name: "Unlocked" });
    expect((await addFeature(product.id, { featureCatalogId: feature.id })).status).toBe(200);
  });

  it("applicationScopes and parentProductId: stored, deduplicated; unknown parent and cycles refused (400)", async () => {
    const root = await makeProduct(token, { applicationScopes: ["a", "b", "a"] });
    expect(root.applicationScopes).toEqual(["a", "b"]);
    const child = await makeProduct(token, { parentProductId: root.id });
    expect(child.parentProductId).toBe(root.id);
    expectProblem(await patch(root.id, { parentProductId: child.id }), 400, "license.validation_error");
    expectProblem(await patch(root.id, { parentProductId: root.id }), 400, "license.validation_error");
    expectProblem(
      await create({ name: "orphan", productCode: uniqueCode("O"), parentProductId: crypto.randomUUID() }),
      400,
      "license.validation_error",
    );
    expect((await patch(child.id, { clearParentProductId: true })).body.parentProductId).toBeNull();
  });

  it("PUT replaces the editable representation; optional fields left out take their defaults", async () => {
    const product = await makeProduct(token, {
      description: "d",
      externalId: "e",
      expirationDate: "2030-01-01T00:00:00Z",
      applicationScopes: ["x"],
      tags: ["Keep-me"],
    });
    const res = await put(product.id, {
      name: "Replaced",
      productCode: product.productCode,
      productVersion: "1.0",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      name: "Replaced",
      description: "",
      externalId: null,
      expirationDate: null,
      applicationScopes: [],
      propertyValues: {},
      tags: ["Keep-me"],
      status: "Draft",
      revisionNumber: 2,
    });
    expectProblem(await put(product.id, { name: "no code" }), 400, "license.validation_error");
  });

  it("optimistic concurrency: a stale revisionNumber answers 409 on PATCH, PUT and feature PATCH and changes nothing", async () => {
    const product = await makeProduct(token);
    expect((await patch(product.id, { name: "r2", revisionNumber: 1 })).status).toBe(200);
    expectProblem(
      await patch(product.id, { name: "stale", revisionNumber: 1 }),
      409,
      "concurrency.revision_mismatch",
    );
    expectProblem(
      await put(product.id, { name: "stale", productCode: product.productCode, revisionNumber: 1 }),
      409,
      "concurrency.revision_mismatch",
    );
    expect((await get(product.id)).body).toMatchObject({ name: "r2", revisionNumber: 2 });
    const feature = await makeFeature(token, { featureType: "Numeric" });
    const pf = (await addFeature(product.id, { featureCatalogId: feature.id, value: "1" })).body.features[0];
    expect(
      (
        await request("PATCH", `${PRODUCTS}/${product.id}/features/${pf.id}`, {
          token,
          body: { value: "2", revisionNumber: 1 },
        })
      ).status,
    ).toBe(200);
    expectProblem(
      await request("PATCH", `${PRODUCTS}/${product.id}/features/${pf.id}`, {
        token,
        body: { value: "3", revisionNumber: 1 },
      }),
      409,
      "concurrency.revision_mismatch",
    );
  });

  it("list: paginated envelope, Sieve filter and sort over a whitelist (400 otherwise)", async () => {
    const code = uniqueCode("LIST");
    for (const version of ["1.0", "2.0", "3.0"])
      await makeProduct(token, { name: `List ${version}`, productCode: code, productVersion: version });
    const page = await request(
      "GET",
      `${PRODUCTS}?filter=productCode==${code}&sortOrder=-productVersion&pageSize=2`,
      { token },
    );
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      pageNumber: 1,
      pageSize: 2,
      totalCount: 3,
      totalPages: 2,
      hasNextPage: true,
      hasPreviousPage: false,
    });
    expect(page.body.items.map((p: { productVersion: string }) => p.productVersion)).toEqual(["3.0", "2.0"]);
    const second = await request(
      "GET",
      `${PRODUCTS}?filter=productCode==${code}&sortOrder=-productVersion&pageSize=2&pageNumber=2`,
      { token },
    );
    expect(second.body.items.map((p: { productVersion: string }) => p.productVersion)).toEqual(["1.0"]);
    const contains = await request(
      "GET",
      `${PRODUCTS}?filter=${encodeURIComponent(`name@=*list 2,productCode==${code}`)}`,
      { token },
    );
    expect(contains.body.totalCount).toBe(1);
    expectProblem(
      await request("GET", `${PRODUCTS}?filter=propertyValues==x`, { token }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("GET", `${PRODUCTS}?sortOrder=tags`, { token }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("GET", `${PRODUCTS}?filter=status==Bogus`, { token }),
      400,
      "license.validation_error",
    );
  });

  it("every route: 401 without a token, 403 with a wrong scope, 404 for another tenant's product", async () => {
    const product = await makeProduct(token);
    const feature = await makeFeature(token);
    const pf = (await addFeature(product.id, { featureCatalogId: feature.id })).body.features[0];
    const routes: [string, string, unknown?][] = [
      ["GET", PRODUCTS],
      ["POST", PRODUCTS, { name: "x", productCode: uniqueCode("X") }],
      ["GET", `${PRODUCTS}/${product.id}`],
      ["PUT", `${PRODUCTS}/${product.id}`, { name: "x", productCode: product.productCode }],
      ["PATCH", `${PRODUCTS}/${product.id}`, { name: "x" }],
      ["DELETE", `${PRODUCTS}/${product.id}`],
      ["POST", `${PRODUCTS}/${product.id}/features`, { featureCatalogId: feature.id }],
      ["PATCH", `${PRODUCTS}/${product.id}/features/${pf.id}`, { name: "x" }],
      ["DELETE", `${PRODUCTS}/${product.id}/features/${pf.id}`],
      ["GET", `${PRODUCTS}/${product.id}/monitored-assets`],
      ["POST", `${PRODUCTS}/${product.id}/monitored-assets`, { metricName: "m", name: "m" }],
    ];
    const wrongScope = await tenant.token("provision.tag.*");
    const other = await createTestTenant("Products intruder");
    const otherToken = await other.token(
      "provision.product.* provision.monitored-asset.* provision.feature-catalog.*",
    );
    const otherFeature = await makeFeature(otherToken);
    for (const [method, path, body] of routes) {
      expectProblem(await request(method, path, { body }), 401, "auth.unauthenticated");
      expectProblem(await request(method, path, { token: wrongScope, body }), 403, "auth.insufficient_scope");
      if (path !== PRODUCTS) {
        const foreignBody =
          method === "POST" && path.endsWith("/features") ? { featureCatalogId: otherFeature.id } : body;
        expectProblem(
          await request(method, path, { token: otherToken, body: foreignBody }),
          404,
          "license.not_found",
        );
      }
    }
    // A foreign catalog entry cannot be attached either: it is unknown here.
    expectProblem(
      await addFeature(product.id, { featureCatalogId: otherFeature.id }),
      400,
      "license.validation_error",
    );
    const list = await request("GET", PRODUCTS, { token: otherToken });
    expect(list.body.items.map((p: { id: string }) => p.id)).not.toContain(product.id);
    expect((await get(product.id)).body).toMatchObject({
      isDeleted: false,
      features: [expect.objectContaining({ id: pf.id })],
    });
  });

  it("POST /admin/products/{id}/features answers 404 for an unknown product and 400 for a missing featureCatalogId", async () => {
    expectProblem(
      await addFeature(crypto.randomUUID(), { featureCatalogId: crypto.randomUUID() }),
      404,
      "license.not_found",
    );
    const product = await makeProduct(token);
    expectProblem(await addFeature(product.id, {}), 400, "license.validation_error");
    expect(FEATURES).toContain("feature-catalog");
  });
});
