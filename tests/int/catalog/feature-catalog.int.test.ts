import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, type TestTenant } from "../../helpers/api.ts";
import { FEATURES, PRODUCTS, makeFeature, makeProduct, uniqueCode } from "../../helpers/catalog-products.ts";
import {
  ADD_ONS,
  ENTITLEMENTS,
  OFFERS,
  SUITES,
  basicPlanSet,
  makeEntitlement,
  makeOffer,
  ok,
} from "../../helpers/entitlements.ts";
import { ALL_PROVISION_SCOPES, made } from "../../helpers/tenant-world.ts";

const entryKeys = [
  "id",
  "productId",
  "featureCode",
  "name",
  "units",
  "metricName",
  "featureType",
  "lifecycleStatus",
  "visibility",
  "meterAggregationType",
  "valueScore",
  "enumOptions",
  "tags",
  "isDeleted",
  "creationTimeStamp",
  "lastUpdateTimeStamp",
  "revisionNumber",
  "referencedBy",
];

describe("feature catalog", () => {
  let tenant: TestTenant;
  let token: string;
  const create = (body: unknown) => request("POST", FEATURES, { token, body });
  const put = (id: string, body: unknown) => request("PUT", `${FEATURES}/${id}`, { token, body });
  const get = (id: string) => request("GET", `${FEATURES}/${id}`, { token });
  const lifecycle = (id: string, body: unknown) =>
    request("PUT", `${FEATURES}/${id}/lifecycle`, { token, body });
  const code = (id: string, body: unknown) => request("PUT", `${FEATURES}/${id}/code`, { token, body });
  /** The editable representation of an entry, as PUT takes it. */
  const editable = (e: Record<string, unknown>) => ({
    name: e.name,
    units: e.units,
    metricName: e.metricName,
    featureType: e.featureType,
    visibility: e.visibility,
    meterAggregationType: e.meterAggregationType,
    valueScore: e.valueScore,
    enumOptions: (e.enumOptions as unknown[]).length ? e.enumOptions : null,
  });

  beforeAll(async () => {
    tenant = await createTestTenant("Features");
    token = await tenant.token("provision.feature-catalog.* provision.product.* provision.tag.read");
  });

  it("feature catalog: every SPEC field is stored and returned with its exact name", async () => {
    const product = await makeProduct(token);
    const res = await create({
      featureCode: uniqueCode("exports"),
      name: "Exports",
      units: "files",
      metricName: "exports",
      featureType: "Metered",
      visibility: "Internal",
      meterAggregationType: "CumulativeCounter",
      valueScore: 2.5,
      tags: ["Core"],
      productId: product.id,
    });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...entryKeys].sort());
    expect(res.body).toMatchObject({
      name: "Exports",
      units: "files",
      metricName: "exports",
      featureType: "Metered",
      lifecycleStatus: "Draft",
      visibility: "Internal",
      meterAggregationType: "CumulativeCounter",
      valueScore: 2.5,
      enumOptions: [],
      tags: ["Core"],
      isDeleted: false,
      revisionNumber: 1,
      productId: product.id,
    });
    expect((await get(res.body.id)).body).toEqual(res.body);
  });

  it("featureCode is stored uppercase and unique per tenant regardless of case (409 feature.code_taken)", async () => {
    const raw = uniqueCode("sso").toLowerCase();
    const entry = await makeFeature(token, { featureCode: raw });
    expect(entry.featureCode).toBe(raw.toUpperCase());
    expectProblem(
      await create({ featureCode: raw.toUpperCase(), name: "dup", featureType: "Boolean" }),
      409,
      "feature.code_taken",
    );
    expectProblem(
      await create({ featureCode: "has space", name: "bad", featureType: "Boolean" }),
      400,
      "license.validation_error",
    );
    const other = await createTestTenant("Features other");
    const otherToken = await other.token("provision.feature-catalog.*");
    expect(
      (
        await request("POST", FEATURES, {
          token: otherToken,
          body: { featureCode: raw, name: "same", featureType: "Boolean" },
        })
      ).status,
    ).toBe(201);
  });

  it("the six featureTypes: enumOptions are required for Enumeration (and only there), metricName for Metered (lowercase)", async () => {
    for (const featureType of ["Boolean", "Numeric", "Text", "JsonField"])
      expect((await makeFeature(token, { featureType })).featureType).toBe(featureType);
    expectProblem(
      await create({ featureCode: uniqueCode("E"), name: "e", featureType: "Enumeration" }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await create({ featureCode: uniqueCode("E"), name: "e", featureType: "Enumeration", enumOptions: [] }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await create({
        featureCode: uniqueCode("E"),
        name: "e",
        featureType: "Enumeration",
        enumOptions: [{ value: "a" }, { value: "a" }],
      }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await create({
        featureCode: uniqueCode("E"),
        name: "e",
        featureType: "Boolean",
        enumOptions: [{ value: "a" }],
      }),
      400,
      "license.validation_error",
    );
    const enumeration = await makeFeature(token, {
      featureType: "Enumeration",
      enumOptions: [{ value: "a" }, { value: "b", description: "Bee" }],
    });
    expect(enumeration.enumOptions).toEqual([
      { value: "a", description: null },
      { value: "b", description: "Bee" },
    ]);
    const noMetric = await create({ featureCode: uniqueCode("M"), name: "m", featureType: "Metered" });
    expectProblem(noMetric, 400, "license.validation_error");
    expect(noMetric.body.errors).toEqual([expect.objectContaining({ path: "body.metricName" })]);
    expectProblem(
      await create({
        featureCode: uniqueCode("M"),
        name: "m",
        featureType: "Metered",
        metricName: "API_CALLS",
      }),
      400,
      "license.validation_error",
    );
    expect((await makeFeature(token, { featureType: "Metered", metricName: "api_calls" })).metricName).toBe(
      "api_calls",
    );
    expectProblem(
      await create({ featureCode: uniqueCode("X"), name: "x", featureType: "Currency" }),
      400,
      "license.validation_error",
    );
  });

  it("PUT edits name, units, metricName, featureType, visibility, meterAggregationType, valueScore, enumOptions and tags", async () => {
    const entry = await makeFeature(token, { featureType: "Boolean", tags: ["Old-f"] });
    const res = await put(entry.id, {
      name: "Renamed",
      units: "seats",
      metricName: "seats",
      featureType: "Enumeration",
      visibility: "Internal",
      meterAggregationType: "Gauge",
      valueScore: 3,
      enumOptions: [{ value: "x" }],
      tags: ["New-f"],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      featureCode: entry.featureCode,
      lifecycleStatus: "Draft",
      name: "Renamed",
      units: "seats",
      metricName: "seats",
      featureType: "Enumeration",
      visibility: "Internal",
      meterAggregationType: "Gauge",
      valueScore: 3,
      enumOptions: [{ value: "x", description: null }],
      tags: ["New-f"],
      revisionNumber: 2,
    });
    const tagged = await request("GET", `/api/v1/provision/admin/tags?filter=name==New-f`, { token });
    expect(tagged.body.items).toEqual([expect.objectContaining({ scope: "FeatureCatalog", usageCount: 1 })]);
    // PUT replaces: optional fields left out fall back to their defaults; tags left out stay.
    const replaced = await put(entry.id, { name: "Plain", featureType: "Text" });
    expect(replaced.body).toMatchObject({
      units: null,
      metricName: null,
      visibility: "Public",
      meterAggregationType: null,
      valueScore: null,
      enumOptions: [],
      tags: ["New-f"],
    });
  });

  it("featureCode and lifecycleStatus are not editable through PUT /admin/feature-catalog/{id} (400, nothing changes)", async () => {
    const entry = await makeFeature(token);
    for (const extra of [
      { featureCode: "OTHER" },
      { lifecycleStatus: "Published" },
      { featureCode: entry.featureCode },
    ]) {
      const res = await put(entry.id, { ...editable(entry), ...extra });
      expectProblem(res, 400, "license.validation_error");
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([`body.${Object.keys(extra)[0]}`]);
    }
    expect((await get(entry.id)).body).toMatchObject({
      featureCode: entry.featureCode,
      lifecycleStatus: "Draft",
      revisionNumber: 1,
    });
  });

  it("PUT .../lifecycle moves Draft → Preview → Published → Disabled → Published → Archived; other moves are refused (400); Archived is final", async () => {
    const entry = await makeFeature(token);
    expectProblem(
      await lifecycle(entry.id, { lifecycleStatus: "Disabled" }),
      400,
      "feature.invalid_lifecycle_transition",
    );
    for (const lifecycleStatus of [
      "Preview",
      "Draft",
      "Preview",
      "Published",
      "Disabled",
      "Published",
      "Archived",
    ]) {
      const res = await lifecycle(entry.id, { lifecycleStatus });
      expect(res.status, `${lifecycleStatus}: ${res.text}`).toBe(200);
      expect(res.body.lifecycleStatus).toBe(lifecycleStatus);
    }
    for (const lifecycleStatus of ["Draft", "Preview", "Published", "Disabled"]) {
      expectProblem(
        await lifecycle(entry.id, { lifecycleStatus }),
        400,
        "feature.invalid_lifecycle_transition",
      );
    }
    expectProblem(await lifecycle(entry.id, { lifecycleStatus: "Retired" }), 400, "license.validation_error");
    const fresh = await makeFeature(token);
    expect((await lifecycle(fresh.id, { lifecycleStatus: "Published", revisionNumber: 1 })).status).toBe(200);
    expectProblem(
      await lifecycle(fresh.id, { lifecycleStatus: "Disabled", revisionNumber: 1 }),
      409,
      "concurrency.revision_mismatch",
    );
  });

  it("PUT .../code changes the code (uppercased, unique); products follow; refused while plan sets or add-ons use the code", async () => {
    const entry = await makeFeature(token);
    const product = await makeProduct(token);
    await request("POST", `${PRODUCTS}/${product.id}/features`, {
      token,
      body: { featureCatalogId: entry.id },
    });
    const newCode = uniqueCode("renamed").toLowerCase();
    const res = await code(entry.id, { featureCode: newCode });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ featureCode: newCode.toUpperCase(), revisionNumber: 2 });
    expect((await request("GET", `${PRODUCTS}/${product.id}`, { token })).body.features[0].featureCode).toBe(
      newCode.toUpperCase(),
    );
    const taken = await makeFeature(token);
    expectProblem(await code(entry.id, { featureCode: taken.featureCode }), 409, "feature.code_taken");

    // An add-on that grants the entry stores its code.
    const admin = await tenant.token(ALL_PROVISION_SCOPES);
    const suite = made(
      await request("POST", SUITES, {
        token: admin,
        body: { code: uniqueCode("S"), name: "S", memberProductIds: [product.id] },
      }),
    );
    const addOn = made(
      await request("POST", ADD_ONS, {
        token: admin,
        body: { suiteId: suite.id, code: uniqueCode("A"), name: "A" },
      }),
    );
    made(await request("POST", `${ADD_ONS}/${addOn.id}/features/${entry.id}`, { token: admin }));
    expectProblem(await code(entry.id, { featureCode: uniqueCode("blocked") }), 400, "feature.in_use");
  });

  it("valueScore: null means not valued; 0 and positive numbers are kept; negative is refused", async () => {
    expect((await makeFeature(token)).valueScore).toBeNull();
    expect((await makeFeature(token, { valueScore: 0 })).valueScore).toBe(0);
    const valued = await makeFeature(token, { valueScore: 7.25 });
    expect(valued.valueScore).toBe(7.25);
    expect((await put(valued.id, { ...editable(valued), valueScore: null })).body.valueScore).toBeNull();
    expectProblem(
      await create({ featureCode: uniqueCode("V"), name: "v", featureType: "Boolean", valueScore: -1 }),
      400,
      "license.validation_error",
    );
    const unvalued = await request(
      "GET",
      `${FEATURES}?filter=${encodeURIComponent(`valueScore==null,id==${valued.id}`)}`,
      { token },
    );
    expect(unvalued.body.totalCount).toBe(1);
  });

  it("referencedBy is null in lists and computed on the single read from real references", async () => {
    const entry = await makeFeature(token, { featureType: "Numeric" });
    const list = await request("GET", `${FEATURES}?filter=id==${entry.id}`, { token });
    expect(list.body.items[0].referencedBy).toBeNull();
    expect((await get(entry.id)).body.referencedBy).toEqual({
      products: 0,
      entitlements: 0,
      offers: 0,
      planSets: 0,
      addOns: 0,
      ratingCampaigns: 0,
    });

    const products = [];
    for (let i = 0; i < 2; i++) {
      const product = await makeProduct(token);
      products.push(product);
      await request("POST", `${PRODUCTS}/${product.id}/features`, {
        token,
        body: { featureCatalogId: entry.id, value: "1" },
      });
    }
    // A plan set valuing the entry, an add-on granting it (to an entitlement, revoked, and to an
    // offer) and a rating campaign asking about it, all through the API.
    const admin = await tenant.token(ALL_PROVISION_SCOPES);
    const suite = made(
      await request("POST", SUITES, {
        token: admin,
        body: { code: uniqueCode("S"), name: "S", memberProductIds: [products[0].id] },
      }),
    );
    const planSet = await basicPlanSet(admin, suite.id, products[0].id, {
      featureValues: [{ featureCode: entry.featureCode, value: "1" }],
    });
    const addOn = made(
      await request("POST", ADD_ONS, {
        token: admin,
        body: { suiteId: suite.id, code: uniqueCode("A"), name: "A" },
      }),
    );
    made(await request("POST", `${ADD_ONS}/${addOn.id}/features/${entry.id}`, { token: admin }));
    const planned = { planSetId: planSet.id, planName: "Basic" };
    const entitlement = await makeEntitlement(admin, { name: "Granted", ...planned });
    const grant = made(
      await request("POST", `${ENTITLEMENTS}/${entitlement.id}/add-on-grants`, {
        token: admin,
        body: { addOnId: addOn.id },
      }),
    );
    ok(
      await request("POST", `${ENTITLEMENTS}/${entitlement.id}/add-on-grants/${grant.id}/revoke`, {
        token: admin,
      }),
    );
    const offer = await makeOffer(admin, { name: "Granted offer", ...planned });
    made(
      await request("POST", `${OFFERS}/${offer.id}/add-on-grants`, {
        token: admin,
        body: { addOnId: addOn.id },
      }),
    );
    made(
      await request("POST", "/api/v1/provision/admin/rating-campaigns", {
        token: admin,
        body: { name: "Rate it", targets: [{ featureCatalogId: entry.id }] },
      }),
    );

    expect((await get(entry.id)).body.referencedBy).toEqual({
      products: 2,
      entitlements: 1,
      offers: 1,
      planSets: 1,
      addOns: 1,
      ratingCampaigns: 1,
    });
  });

  it("DELETE: refused while referenced (400 feature.in_use, archive instead); otherwise a soft delete that frees the code", async () => {
    const used = await makeFeature(token);
    const product = await makeProduct(token);
    await request("POST", `${PRODUCTS}/${product.id}/features`, {
      token,
      body: { featureCatalogId: used.id },
    });
    const refused = await request("DELETE", `${FEATURES}/${used.id}`, { token });
    expectProblem(refused, 400, "feature.in_use");
    expect(refused.body.errors).toEqual([{ path: "referencedBy.products", message: "1" }]);

    const entry = await makeFeature(token, { tags: ["Gone-f"] });
    expect((await request("DELETE", `${FEATURES}/${entry.id}`, { token })).status).toBe(204);
    expect((await get(entry.id)).body).toMatchObject({ isDeleted: true, tags: [] });
    expect((await request("GET", `${FEATURES}?filter=id==${entry.id}`, { token })).body.totalCount).toBe(0);
    expect(
      (await request("GET", `${FEATURES}?filter=id==${entry.id}&includeDeleted=true`, { token })).body
        .totalCount,
    ).toBe(1);
    expectProblem(await request("DELETE", `${FEATURES}/${entry.id}`, { token }), 404, "license.not_found");
    expectProblem(await put(entry.id, editable(entry)), 404, "license.not_found");
    expect(
      (await create({ featureCode: entry.featureCode, name: "reborn", featureType: "Boolean" })).status,
    ).toBe(201);
  });

  it("a PUT that would make product feature values invalid is refused (400 listing them)", async () => {
    const entry = await makeFeature(token, { featureType: "Numeric" });
    const product = await makeProduct(token);
    await request("POST", `${PRODUCTS}/${product.id}/features`, {
      token,
      body: { featureCatalogId: entry.id, value: "12" },
    });
    const res = await put(entry.id, { ...editable(entry), featureType: "Boolean" });
    expectProblem(res, 400, "license.validation_error");
    expect(res.body.errors[0].message).toContain(product.productCode);
    expect((await put(entry.id, { ...editable(entry), featureType: "Text" })).status).toBe(200);
  });

  it("optimistic concurrency on PUT and PUT .../code (stale revisionNumber → 409)", async () => {
    const entry = await makeFeature(token);
    expect((await put(entry.id, { ...editable(entry), name: "r2", revisionNumber: 1 })).status).toBe(200);
    expectProblem(
      await put(entry.id, { ...editable(entry), name: "stale", revisionNumber: 1 }),
      409,
      "concurrency.revision_mismatch",
    );
    expectProblem(
      await code(entry.id, { featureCode: uniqueCode("C"), revisionNumber: 1 }),
      409,
      "concurrency.revision_mismatch",
    );
  });

  it("list: paginated, Sieve filter and sort over a whitelist", async () => {
    const prefix = uniqueCode("LST").toUpperCase();
    for (const [i, featureType] of ["Boolean", "Numeric", "Text"].entries())
      await makeFeature(token, { featureCode: `${prefix}-${i}`, featureType });
    const res = await request(
      "GET",
      `${FEATURES}?filter=${encodeURIComponent(`featureCode_=${prefix}`)}&sortOrder=-featureCode&pageSize=2`,
      { token },
    );
    expect(res.body).toMatchObject({ totalCount: 3, totalPages: 2, hasNextPage: true });
    expect(res.body.items.map((e: { featureCode: string }) => e.featureCode)).toEqual([
      `${prefix}-2`,
      `${prefix}-1`,
    ]);
    const numeric = await request(
      "GET",
      `${FEATURES}?filter=${encodeURIComponent(`featureCode_=${prefix},featureType==Numeric`)}`,
      { token },
    );
    expect(numeric.body.items.map((e: { featureType: string }) => e.featureType)).toEqual(["Numeric"]);
    expect(
      (await request("GET", `${FEATURES}?sortOrder=-creationTimeStamp&pageSize=1`, { token })).status,
    ).toBe(200);
    expectProblem(
      await request("GET", `${FEATURES}?filter=enumOptions==a`, { token }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("GET", `${FEATURES}?filter=lifecycleStatus==Live`, { token }),
      400,
      "license.validation_error",
    );
  });

  it("every route: 401 without a token, 403 with a wrong scope, 404 for another tenant's entry", async () => {
    const entry = await makeFeature(token);
    const routes: [string, string, unknown?][] = [
      ["GET", FEATURES],
      ["POST", FEATURES, { featureCode: uniqueCode("Z"), name: "z", featureType: "Boolean" }],
      ["GET", `${FEATURES}/${entry.id}`],
      ["PUT", `${FEATURES}/${entry.id}`, editable(entry)],
      ["DELETE", `${FEATURES}/${entry.id}`],
      ["PUT", `${FEATURES}/${entry.id}/lifecycle`, { lifecycleStatus: "Preview" }],
      ["PUT", `${FEATURES}/${entry.id}/code`, { featureCode: uniqueCode("Z") }],
    ];
    const wrongScope = await tenant.token("provision.product.*");
    const other = await createTestTenant("Features intruder");
    const otherToken = await other.token("provision.feature-catalog.*");
    for (const [method, path, body] of routes) {
      expectProblem(await request(method, path, { body }), 401, "auth.unauthenticated");
      expectProblem(await request(method, path, { token: wrongScope, body }), 403, "auth.insufficient_scope");
      if (path !== FEATURES)
        expectProblem(await request(method, path, { token: otherToken, body }), 404, "license.not_found");
    }
    expect((await get(entry.id)).body).toMatchObject({
      isDeleted: false,
      lifecycleStatus: "Draft",
      revisionNumber: 1,
    });
    expect(
      (await request("GET", FEATURES, { token: otherToken })).body.items.map((e: { id: string }) => e.id),
    ).not.toContain(entry.id);
  });
});
