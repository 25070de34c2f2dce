import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { catalogFixture } from "../../helpers/catalog-pricing.ts";
import {
  ENTITLEMENTS,
  OFFERS,
  basicPlanSet,
  makeEntitlement,
  makeOffer,
} from "../../helpers/entitlements.ts";
import { ALL_PROVISION_SCOPES } from "../../helpers/tenant-world.ts";

const SUITES = "/api/v1/provision/admin/suites";
const ADD_ONS = "/api/v1/provision/admin/usage-plans/add-ons";

type Entry = { id: string; featureCode: string; name: string; units: string | null };

describe("add-ons", () => {
  let tenant: TestTenant;
  let token: string;
  let fx: ReturnType<typeof catalogFixture>;
  let suiteId: string;
  let planSet: { id: string };
  let seats: Entry;
  let sso: Entry;
  let apiCalls: Entry;
  let support: Entry;
  let codeCounter = 0;

  const nextCode = () => `ADDON-${++codeCounter}`;
  const create = (body: Record<string, unknown>) =>
    request("POST", ADD_ONS, { token, body: { suiteId, code: nextCode(), name: "Extra", ...body } });
  const created = async (body: Record<string, unknown> = {}) => {
    const res = await create(body);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const issuesOf = async (body: Record<string, unknown>) => {
    const res = await create(body);
    expectProblem(res, 400, "license.validation_error");
    return res.body.errors as { path: string; message: string }[];
  };
  /** An entitlement or offer on a plan of the add-ons' suite: what a grant needs (through the API). */
  const owner = async (kind: "entitlement" | "offer") => {
    const admin = await tenant.token(ALL_PROVISION_SCOPES);
    const body = { name: "Holds a grant", planSetId: planSet.id, planName: "Basic" };
    return (kind === "entitlement" ? await makeEntitlement(admin, body) : await makeOffer(admin, body))
      .id as string;
  };
  /** A grant through the API, started a day ago; revoked through the API when asked. */
  const grant = async (
    addOnId: string,
    data: { entitlementId?: string; offerId?: string; isRevoked?: boolean; expiresAt?: Date },
  ) => {
    const admin = await tenant.token(ALL_PROVISION_SCOPES);
    const path = data.entitlementId ? `${ENTITLEMENTS}/${data.entitlementId}` : `${OFFERS}/${data.offerId}`;
    const made = await request("POST", `${path}/add-on-grants`, {
      token: admin,
      body: {
        addOnId,
        startsAtUtc: new Date(Date.now() - 86_400_000).toISOString(),
        expiresAtUtc: data.expiresAt?.toISOString() ?? null,
      },
    });
    expect(made.status, made.text).toBe(200);
    if (data.isRevoked) {
      const revoked = await request("POST", `${path}/add-on-grants/${made.body.id}/revoke`, { token: admin });
      expect(revoked.status, revoked.text).toBe(200);
    }
  };

  const tiers = [
    { name: "Boost", startUsage: 0, endUsage: 5000 },
    {
      name: "Beyond",
      startUsage: 5000,
      endUsage: null,
      creditsPerUnitOfConsumption: 1,
      quotaUsagePolicy: "AllowWithOverage",
      fundingBalanceMetric: "credits",
    },
  ];

  beforeAll(async () => {
    tenant = await createTestTenant("Add-ons");
    token = await tenant.token(["provision.add-on.*", "provision.suite.*"]);
    fx = catalogFixture(tenant);
    const product = (await fx.product({ name: "Editor" })) as { id: string };
    await fx.creditBalance(product.id, "credits");
    seats = (await fx.feature({ featureType: "Numeric", units: "seats", name: "Seats" })) as Entry;
    sso = (await fx.feature({ featureType: "Boolean", name: "Single sign-on" })) as Entry;
    apiCalls = (await fx.feature({
      featureType: "Metered",
      metricName: "api-calls",
      units: "calls",
    })) as Entry;
    support = (await fx.feature({
      featureType: "Enumeration",
      enumOptions: [{ value: "standard" }, { value: "priority" }],
    })) as Entry;
    const suite = await request("POST", SUITES, {
      token,
      body: { code: "ADDON-SUITE", name: "Editor suite", memberProductIds: [product.id] },
    });
    suiteId = suite.body.id;
    const admin = await tenant.token(ALL_PROVISION_SCOPES);
    planSet = await basicPlanSet(admin, suiteId, product.id);
  });

  it("creates a Draft add-on of a suite with its features and feature values (Replace, Add, Tiered); features include every value's entry", async () => {
    const addOn = await created({
      code: "POWER-PACK",
      name: "Power pack",
      description: "More of everything",
      featureCatalogIds: [sso.id],
      featureValues: [
        { featureCode: support.featureCode, value: "priority", operation: "Replace" },
        {
          featureCode: seats.featureCode.toLowerCase(),
          value: "5",
          operation: "Add",
          planTargets: ["Team", "Business"],
        },
        { featureCode: apiCalls.featureCode, operation: "Tiered", usageTiers: tiers },
      ],
    });
    expect(addOn).toMatchObject({
      suiteId,
      suiteName: "Editor suite",
      code: "POWER-PACK",
      name: "Power pack",
      description: "More of everything",
      status: "Draft",
      archivedAt: null,
      referencedBy: { entitlements: 0, offers: 0 },
    });
    expect(addOn.features.map((f: { featureCatalogId: string }) => f.featureCatalogId)).toEqual([
      sso.id,
      support.id,
      seats.id,
      apiCalls.id,
    ]);
    expect(addOn.features[0]).toEqual({
      featureCatalogId: sso.id,
      featureCode: sso.featureCode,
      name: "Single sign-on",
      featureType: "Boolean",
      units: null,
      isDeleted: false,
    });
    expect(addOn.featureValues).toEqual([
      {
        featureCode: support.featureCode,
        featureName: support.name,
        units: null,
        value: "priority",
        usageTiers: [],
        planTargets: [],
        operation: "Replace",
      },
      {
        featureCode: seats.featureCode,
        featureName: "Seats",
        units: "seats",
        value: "5",
        usageTiers: [],
        planTargets: ["Team", "Business"],
        operation: "Add",
      },
      expect.objectContaining({
        featureCode: apiCalls.featureCode,
        value: null,
        operation: "Tiered",
        planTargets: [],
        usageTiers: [
          expect.objectContaining({ name: "Boost" }),
          expect.objectContaining({ name: "Beyond", fundingBalanceMetric: "credits" }),
        ],
      }),
    ]);
    expect((await request("GET", `${ADD_ONS}/${addOn.id}`, { token })).body).toEqual(addOn);
  });

  it("codes are unique per tenant (409 add_on.code_taken)", async () => {
    await created({ code: "DUPLICATE" });
    expectProblem(await create({ code: "DUPLICATE" }), 409, "add_on.code_taken");
  });

  it("operation rules: Replace is read per feature type; Add needs a positive number on a Numeric or Metered feature; Tiered needs usageTiers on a Metered feature", async () => {
    expect(
      await issuesOf({
        featureValues: [{ featureCode: sso.featureCode, value: "maybe", operation: "Replace" }],
      }),
    ).toContainEqual(expect.objectContaining({ path: "featureValues.0.value" }));
    expect(
      await issuesOf({ featureValues: [{ featureCode: support.featureCode, value: "gold" }] }),
    ).toContainEqual(expect.objectContaining({ path: "featureValues.0.value" }));
    expect(
      await issuesOf({ featureValues: [{ featureCode: sso.featureCode, value: "1", operation: "Add" }] }),
    ).toContainEqual(expect.objectContaining({ path: "featureValues.0.operation" }));
    expect(
      await issuesOf({ featureValues: [{ featureCode: seats.featureCode, value: "-2", operation: "Add" }] }),
    ).toContainEqual(expect.objectContaining({ path: "body.featureValues.0.value" }));
    expect(
      await issuesOf({ featureValues: [{ featureCode: apiCalls.featureCode, operation: "Tiered" }] }),
    ).toContainEqual(expect.objectContaining({ path: "body.featureValues.0.usageTiers" }));
    expect(
      await issuesOf({
        featureValues: [
          { featureCode: apiCalls.featureCode, operation: "Tiered", value: "5", usageTiers: tiers },
        ],
      }),
    ).toContainEqual(expect.objectContaining({ path: "body.featureValues.0.value" }));
    expect(
      await issuesOf({
        featureValues: [{ featureCode: seats.featureCode, operation: "Tiered", usageTiers: [tiers[0]] }],
      }),
    ).toContainEqual(expect.objectContaining({ path: "featureValues.0.operation" }));
    expect(
      await issuesOf({
        featureValues: [{ featureCode: seats.featureCode, value: "1", usageTiers: [tiers[0]] }],
      }),
    ).toContainEqual(expect.objectContaining({ path: "body.featureValues.0.usageTiers" }));
    expect(
      await issuesOf({
        featureValues: [
          {
            featureCode: apiCalls.featureCode,
            operation: "Tiered",
            usageTiers: [tiers[0], { ...tiers[1], fundingBalanceMetric: "gold" }],
          },
        ],
      }),
    ).toContainEqual(expect.objectContaining({ path: "featureValues.0.usageTiers.1.fundingBalanceMetric" }));
    expect(await issuesOf({ featureValues: [{ featureCode: "NOPE", value: "1" }] })).toContainEqual(
      expect.objectContaining({ path: "featureValues.0.featureCode" }),
    );
    expect(
      await issuesOf({
        featureValues: [{ featureCode: seats.featureCode, value: "1", operation: "Multiply" }],
      }),
    ).toContainEqual(expect.objectContaining({ path: "body.featureValues.0.operation" }));
  });

  it("planTargets: empty applies to every plan; two values of one feature may not target the same plan", async () => {
    const both = await created({
      featureValues: [
        { featureCode: seats.featureCode, value: "10", planTargets: ["Team"] },
        { featureCode: seats.featureCode, value: "50", planTargets: ["Business"] },
      ],
    });
    expect(both.featureValues.map((v: { planTargets: string[] }) => v.planTargets)).toEqual([
      ["Team"],
      ["Business"],
    ]);
    expect(
      await issuesOf({
        featureValues: [
          { featureCode: seats.featureCode, value: "1" },
          { featureCode: seats.featureCode, value: "2", planTargets: ["Team"] },
        ],
      }),
    ).toContainEqual(expect.objectContaining({ path: "body.featureValues.1.planTargets" }));
    expect(
      await issuesOf({
        featureValues: [{ featureCode: seats.featureCode, value: "1", planTargets: ["Team", "team"] }],
      }),
    ).toContainEqual(expect.objectContaining({ path: "body.featureValues.0.planTargets" }));
  });

  it("invalid input (400 with field errors); an unknown or foreign suite or catalog entry is 404", async () => {
    expectProblem(await create({ code: "" }), 400, "license.validation_error");
    expectProblem(
      await request("POST", ADD_ONS, { token, body: { code: "NO-SUITE", name: "x" } }),
      400,
      "license.validation_error",
    );
    expectProblem(await create({ suiteId: crypto.randomUUID() }), 404, "license.not_found");
    expectProblem(await create({ featureCatalogIds: [crypto.randomUUID()] }), 404, "license.not_found");
    const other = catalogFixture(await createTestTenant("Foreign feature"));
    const foreign = (await other.feature({ featureType: "Boolean" })) as Entry;
    expectProblem(await create({ featureCatalogIds: [foreign.id] }), 404, "license.not_found");
  });

  it("PUT replaces code, name and description; featureCatalogIds and featureValues null keep them; an add-on stays in its suite", async () => {
    const addOn = await created({
      featureCatalogIds: [sso.id],
      featureValues: [{ featureCode: seats.featureCode, value: "3", operation: "Add" }],
    });
    const renamed = await request("PUT", `${ADD_ONS}/${addOn.id}`, {
      token,
      body: { code: addOn.code, name: "Renamed", featureCatalogIds: null, featureValues: null },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({
      name: "Renamed",
      description: "",
      features: addOn.features,
      featureValues: addOn.featureValues,
    });
    const replaced = await request("PUT", `${ADD_ONS}/${addOn.id}`, {
      token,
      body: {
        code: "RENAMED-CODE",
        name: "Renamed",
        featureCatalogIds: [],
        featureValues: [{ featureCode: support.featureCode, value: "standard" }],
      },
    });
    expect(replaced.body.code).toBe("RENAMED-CODE");
    expect(replaced.body.features.map((f: { featureCatalogId: string }) => f.featureCatalogId)).toEqual([
      support.id,
    ]);
    expect(replaced.body.featureValues.map((v: { featureCode: string }) => v.featureCode)).toEqual([
      support.featureCode,
    ]);
    const otherSuite = (
      await request("POST", SUITES, { token, body: { code: "OTHER-ADDON-SUITE", name: "Other" } })
    ).body;
    expectProblem(
      await request("PUT", `${ADD_ONS}/${addOn.id}`, {
        token,
        body: { suiteId: otherSuite.id, code: "RENAMED-CODE", name: "x" },
      }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("PUT", `${ADD_ONS}/${addOn.id}`, { token, body: { code: "RENAMED-CODE" } }),
      400,
      "license.validation_error",
    );
  });

  it("POST .../features/{featureCatalogId} adds a granted feature (200 add-on, once); unknown add-on or entry is 404", async () => {
    const addOn = await created();
    const res = await request("POST", `${ADD_ONS}/${addOn.id}/features/${seats.id}`, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.features).toEqual([
      expect.objectContaining({
        featureCatalogId: seats.id,
        featureCode: seats.featureCode,
        featureType: "Numeric",
        units: "seats",
      }),
    ]);
    const again = await request("POST", `${ADD_ONS}/${addOn.id}/features/${seats.id}`, { token });
    expect(again.body.features).toHaveLength(1);
    expectProblem(
      await request("POST", `${ADD_ONS}/${addOn.id}/features/${crypto.randomUUID()}`, { token }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", `${ADD_ONS}/${crypto.randomUUID()}/features/${seats.id}`, { token }),
      404,
      "license.not_found",
    );
  });

  describe("archive and delete", () => {
    it("a Draft add-on with no grants is deleted (204)", async () => {
      const addOn = await created({ featureValues: [{ featureCode: seats.featureCode, value: "1" }] });
      const res = await request("DELETE", `${ADD_ONS}/${addOn.id}`, { token });
      expect(res.status).toBe(204);
      expect(res.text).toBe("");
      expectProblem(await request("GET", `${ADD_ONS}/${addOn.id}`, { token }), 404, "license.not_found");
      expectProblem(await request("DELETE", `${ADD_ONS}/${addOn.id}`, { token }), 404, "license.not_found");
      expect(await testDb().addOnFeatureValue.count({ where: { addOnId: addOn.id } })).toBe(0);
    });

    it("POST .../archive archives (read-only from then on); archiving again changes nothing; an archived add-on cannot be deleted: 400", async () => {
      const addOn = await created();
      const archived = await request("POST", `${ADD_ONS}/${addOn.id}/archive`, { token });
      expect(archived.status, archived.text).toBe(200);
      expect(archived.body).toMatchObject({ status: "Archived" });
      expect(archived.body.archivedAt).not.toBeNull();
      const again = await request("POST", `${ADD_ONS}/${addOn.id}/archive`, { token });
      expect(again.body).toEqual(archived.body);
      const refused = await request("DELETE", `${ADD_ONS}/${addOn.id}`, { token });
      expectProblem(refused, 400, "add_on.delete_refused");
      expect(refused.body.title).toContain("archive it instead");
      expectProblem(
        await request("PUT", `${ADD_ONS}/${addOn.id}`, { token, body: { code: addOn.code, name: "x" } }),
        400,
        "add_on.archived",
      );
      expectProblem(
        await request("POST", `${ADD_ONS}/${addOn.id}/features/${seats.id}`, { token }),
        400,
        "add_on.archived",
      );
      expect((await request("GET", `${ADD_ONS}/${addOn.id}`, { token })).body.status).toBe("Archived");
    });

    it("a Draft add-on that an entitlement or offer holds a grant of (revoked and expired included) is refused: 400, archive instead", async () => {
      const addOn = await created();
      await grant(addOn.id, { entitlementId: await owner("entitlement"), isRevoked: true });
      expectProblem(
        await request("DELETE", `${ADD_ONS}/${addOn.id}`, { token }),
        400,
        "add_on.delete_refused",
      );
      expect((await request("GET", `${ADD_ONS}/${addOn.id}`, { token })).status).toBe(200);
      const offerOnly = await created();
      await grant(offerOnly.id, { offerId: await owner("offer"), expiresAt: new Date(Date.now() - 1000) });
      expectProblem(
        await request("DELETE", `${ADD_ONS}/${offerOnly.id}`, { token }),
        400,
        "add_on.delete_refused",
      );
    });

    it("referencedBy counts the entitlements (revoked and expired grants included) and offers holding a grant; null in lists", async () => {
      const addOn = await created({ code: "REFERENCED" });
      const [e1, e2, o1] = [await owner("entitlement"), await owner("entitlement"), await owner("offer")];
      await grant(addOn.id, { entitlementId: e1 });
      await grant(addOn.id, { entitlementId: e1, isRevoked: true });
      await grant(addOn.id, { entitlementId: e2, expiresAt: new Date(Date.now() - 1000) });
      await grant(addOn.id, { offerId: o1 });
      expect((await request("GET", `${ADD_ONS}/${addOn.id}`, { token })).body.referencedBy).toEqual({
        entitlements: 2,
        offers: 1,
      });
      const listed = (await request("GET", `${ADD_ONS}?filter=code==REFERENCED`, { token })).body;
      expect(listed.items[0]).toMatchObject({ id: addOn.id, referencedBy: null });
    });
  });

  it("the list is paginated with a Sieve whitelist", async () => {
    const scoped = await createTestTenant("Add-on lists");
    const scopedToken = await scoped.token(["provision.add-on.*", "provision.suite.*"]);
    const suite = (await request("POST", SUITES, { token: scopedToken, body: { code: "S", name: "S" } }))
      .body;
    for (const code of ["B-ONE", "A-TWO", "C-THREE"]) {
      expect(
        (
          await request("POST", ADD_ONS, {
            token: scopedToken,
            body: { suiteId: suite.id, code, name: code },
          })
        ).status,
      ).toBe(200);
    }
    const first = (await request("GET", `${ADD_ONS}?filter=code==C-THREE`, { token: scopedToken })).body
      .items[0];
    await request("POST", `${ADD_ONS}/${first.id}/archive`, { token: scopedToken });
    const page = (await request("GET", `${ADD_ONS}?sortOrder=code&pageSize=2`, { token: scopedToken })).body;
    expect(page).toMatchObject({ totalCount: 3, totalPages: 2, hasNextPage: true });
    expect(page.items.map((a: { code: string }) => a.code)).toEqual(["A-TWO", "B-ONE"]);
    expect(
      (await request("GET", `${ADD_ONS}?filter=status==Archived`, { token: scopedToken })).body.items.map(
        (a: { code: string }) => a.code,
      ),
    ).toEqual(["C-THREE"]);
    expect(
      (await request("GET", `${ADD_ONS}?filter=suiteId==${suite.id},status==Draft`, { token: scopedToken }))
        .body.totalCount,
    ).toBe(2);
    expect(
      (
        await request("GET", `${ADD_ONS}?filter=suiteName==S&sortOrder=-suiteName,-code`, {
          token: scopedToken,
        })
      ).body.items.map((a: { code: string }) => a.code),
    ).toEqual(["C-THREE", "B-ONE", "A-TWO"]);
    expectProblem(
      await request("GET", `${ADD_ONS}?filter=referencedBy==1`, { token: scopedToken }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("GET", `${ADD_ONS}?sortOrder=featureValues`, { token: scopedToken }),
      400,
      "license.validation_error",
    );
  });

  it("every route: 401 without a token, 403 without the add-on scope, 404 for another tenant's add-on", async () => {
    const addOn = await created();
    const routes: [string, string, unknown?][] = [
      ["GET", ADD_ONS],
      ["POST", ADD_ONS, { suiteId, code: "G", name: "g" }],
      ["GET", `${ADD_ONS}/${addOn.id}`],
      ["PUT", `${ADD_ONS}/${addOn.id}`, { code: "G", name: "g" }],
      ["DELETE", `${ADD_ONS}/${addOn.id}`],
      ["POST", `${ADD_ONS}/${addOn.id}/archive`],
      ["POST", `${ADD_ONS}/${addOn.id}/features/${seats.id}`],
    ];
    const wrongScope = await tenant.token("provision.suite.*");
    const readOnly = await tenant.token("provision.add-on.read");
    const other = await createTestTenant("Add-on intruder");
    const otherToken = await other.token(["provision.add-on.*"]);
    for (const [method, path, body] of routes) {
      expectProblem(await request(method, path, { body }), 401, "auth.unauthenticated");
      expectProblem(await request(method, path, { token: wrongScope, body }), 403, "auth.insufficient_scope");
      if (method !== "GET")
        expectProblem(await request(method, path, { token: readOnly, body }), 403, "auth.insufficient_scope");
      if (path !== ADD_ONS)
        expectProblem(await request(method, path, { token: otherToken, body }), 404, "license.not_found");
    }
    expectProblem(
      await request("POST", ADD_ONS, { token: otherToken, body: { suiteId, code: "G", name: "g" } }),
      404,
      "license.not_found",
    );
    expect((await request("GET", `${ADD_ONS}/${addOn.id}`, { token })).body).toEqual(addOn);
  });
});
