import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { catalogFixture } from "../../helpers/catalog-pricing.ts";

const SUITES = "/api/v1/provision/admin/suites";
const PLAN_SETS = "/api/v1/provision/admin/usage-plans/plan-sets";

type Fixture = ReturnType<typeof catalogFixture>;

describe("suites", () => {
  let tenant: TestTenant;
  let token: string;
  let fx: Fixture;
  let seats: { id: string; featureCode: string };

  const product = async (name?: string) =>
    (await fx.product({ name })) as { id: string; productCode: string; name: string };
  const createSuite = async (code: string, memberProductIds: string[] = []) => {
    const res = await request("POST", SUITES, {
      token,
      body: { code, name: `Suite ${code}`, description: "", memberProductIds },
    });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  /** A plan with one line item per product, each giving the seats feature a value. */
  const plan = (name: string, productIds: string[]) => ({
    name,
    pricingMode: "Absolute",
    monthlyPrice: 10,
    currency: "EUR",
    lineItems: productIds.map((productId) => ({
      productId,
      featureValues: [{ featureCode: seats.featureCode, value: "5" }],
    })),
  });
  const createPlanSet = async (body: Record<string, unknown>) => {
    const res = await request("POST", PLAN_SETS, { token, body: { name: "Plans", ...body } });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const move = async (id: string, status: string) => {
    const res = await request("PUT", `${PLAN_SETS}/${id}/status`, { token, body: { status } });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const revisions = async (planSetId: string) =>
    (await request("GET", `${PLAN_SETS}/${planSetId}/revisions`, { token })).body.items as any[];
  const productsOf = (planSet: { plans: { lineItems: { productId: string }[] }[] }) =>
    planSet.plans.map((p) => p.lineItems.map((li) => li.productId));

  beforeAll(async () => {
    tenant = await createTestTenant("Suites");
    token = await tenant.token(["provision.suite.*", "provision.plan-set.*"]);
    fx = catalogFixture(tenant);
    seats = (await fx.feature({ featureType: "Numeric", units: "seats" })) as {
      id: string;
      featureCode: string;
    };
  });

  it("POST /admin/suites creates a suite whose members are ordered by sell order (productId, productCode, productName, sortOrder)", async () => {
    const [a, b, c] = [await product("Alpha"), await product("Bravo"), await product("Charlie")];
    const suite = await createSuite("OFFICE", [c.id, a.id, b.id]);
    expect(suite).toMatchObject({
      code: "OFFICE",
      name: "Suite OFFICE",
      description: "",
      isImplicit: false,
      referencedBy: { planSets: 0, addOns: 0 },
    });
    expect(suite.members).toEqual([
      {
        productId: c.id,
        productCode: c.productCode,
        productVersion: "",
        productName: "Charlie",
        sortOrder: 1,
      },
      { productId: a.id, productCode: a.productCode, productVersion: "", productName: "Alpha", sortOrder: 2 },
      { productId: b.id, productCode: b.productCode, productVersion: "", productName: "Bravo", sortOrder: 3 },
    ]);
    const read = await request("GET", `${SUITES}/${suite.id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(suite);
  });

  it("suite codes are unique per tenant (409 suite.code_taken), not across tenants", async () => {
    await createSuite("UNIQUE-CODE");
    expectProblem(
      await request("POST", SUITES, {
        token,
        body: { code: "UNIQUE-CODE", name: "Again", memberProductIds: [] },
      }),
      409,
      "suite.code_taken",
    );
    const other = await createTestTenant("Suites other");
    const otherToken = await other.token("provision.suite.*");
    expect(
      (
        await request("POST", SUITES, {
          token: otherToken,
          body: { code: "UNIQUE-CODE", name: "Mine", memberProductIds: [] },
        })
      ).status,
    ).toBe(200);
  });

  it("invalid suites are refused with field errors (400); an unknown or foreign product is 404", async () => {
    const p = await product();
    for (const body of [
      { code: "", name: "x" },
      { code: "X1", name: "" },
      { code: "X2", name: "x", memberProductIds: [p.id, p.id] },
      { code: "X3", name: "x", memberProductIds: ["nope"] },
    ]) {
      const res = await request("POST", SUITES, { token, body });
      expectProblem(res, 400, "license.validation_error");
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    expectProblem(
      await request("POST", SUITES, {
        token,
        body: { code: "X4", name: "x", memberProductIds: [crypto.randomUUID()] },
      }),
      404,
      "license.not_found",
    );
    const other = catalogFixture(await createTestTenant("Foreign product"));
    const foreign = (await other.product()) as { id: string };
    expectProblem(
      await request("POST", SUITES, {
        token,
        body: { code: "X5", name: "x", memberProductIds: [foreign.id] },
      }),
      404,
      "license.not_found",
    );
  });

  it("isImplicit: pricing one product (a plan set created for its productId) auto-creates its implicit suite, hidden from lists unless includeImplicit=true", async () => {
    const p = await product("Solo");
    const planSet = await createPlanSet({
      productId: p.id,
      plans: [
        { name: "Basic", pricingMode: "Absolute", monthlyPrice: null, lineItems: [{ featureValues: [] }] },
      ],
    });
    const suite = (await request("GET", `${SUITES}/${planSet.suiteId}`, { token })).body;
    expect(suite).toMatchObject({
      isImplicit: true,
      name: "Solo",
      code: p.productCode,
      members: [{ productId: p.id, sortOrder: 1 }],
    });
    expect(planSet).toMatchObject({ suiteId: suite.id, suiteIsImplicit: true, status: "Draft", revision: 1 });
    // docs/api.md "Line item": the server stamps the sole member on a line item without productId.
    expect(planSet.plans[0].lineItems[0].productId).toBe(p.id);

    const listed = await request("GET", `${SUITES}?pageSize=100`, { token });
    expect(listed.body.items.map((s: { id: string }) => s.id)).not.toContain(suite.id);
    const withImplicit = await request("GET", `${SUITES}?pageSize=100&includeImplicit=true`, { token });
    expect(withImplicit.body.items.map((s: { id: string }) => s.id)).toContain(suite.id);
    expect((await request("GET", `${SUITES}?filter=isImplicit==true`, { token })).body.totalCount).toBe(0);
    expect(
      (await request("GET", `${SUITES}?filter=isImplicit==true&includeImplicit=true`, { token })).body
        .totalCount,
    ).toBeGreaterThan(0);

    // Pricing the product again is a new revision of the same implicit suite.
    const again = await createPlanSet({ productId: p.id, plans: [] });
    expect(again).toMatchObject({ suiteId: suite.id, revision: 2 });
  });

  it("isImplicit becomes false permanently once a second product joins", async () => {
    const [p, q] = [await product("First"), await product("Second")];
    const planSet = await createPlanSet({ productId: p.id });
    const joined = await request("POST", `${SUITES}/${planSet.suiteId}/members`, {
      token,
      body: { productIds: [p.id, q.id] },
    });
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body).toMatchObject({ isImplicit: false });
    expect(joined.body.members.map((m: { productId: string }) => m.productId)).toEqual([p.id, q.id]);
    expect((await request("DELETE", `${SUITES}/${planSet.suiteId}/members/${q.id}`, { token })).status).toBe(
      204,
    );
    const after = (await request("GET", `${SUITES}/${planSet.suiteId}`, { token })).body;
    expect(after).toMatchObject({ isImplicit: false, members: [{ productId: p.id }] });
    expect((await request("GET", `${SUITES}?filter=id==${planSet.suiteId}`, { token })).body.totalCount).toBe(
      1,
    );
    // The product's next pricing gets a fresh implicit suite: the old one no longer stands for it.
    const next = await createPlanSet({ productId: p.id });
    expect(next.suiteId).not.toBe(planSet.suiteId);
    expect(next.suiteIsImplicit).toBe(true);
  });

  it("POST .../members sets the sell order: adds new products and reorders; leaving out a current member is refused (400)", async () => {
    const [a, b, c] = [await product(), await product(), await product()];
    const suite = await createSuite("REORDER", [a.id, b.id]);
    const reordered = await request("POST", `${SUITES}/${suite.id}/members`, {
      token,
      body: { productIds: [c.id, b.id, a.id] },
    });
    expect(reordered.status, reordered.text).toBe(200);
    expect(
      reordered.body.members.map((m: { productId: string; sortOrder: number }) => [m.productId, m.sortOrder]),
    ).toEqual([
      [c.id, 1],
      [b.id, 2],
      [a.id, 3],
    ]);
    const missing = await request("POST", `${SUITES}/${suite.id}/members`, {
      token,
      body: { productIds: [c.id, a.id] },
    });
    expectProblem(missing, 400, "license.validation_error");
    expect(missing.body.errors[0]).toMatchObject({ path: "productIds" });
    expectProblem(
      await request("POST", `${SUITES}/${suite.id}/members`, {
        token,
        body: { productIds: [c.id, b.id, a.id, crypto.randomUUID()] },
      }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", `${SUITES}/${suite.id}/members`, { token, body: { productIds: [a.id, a.id] } }),
      400,
      "license.validation_error",
    );
    expect(
      (await request("GET", `${SUITES}/${suite.id}`, { token })).body.members.map(
        (m: { productId: string }) => m.productId,
      ),
    ).toEqual([c.id, b.id, a.id]);
  });

  describe("DELETE /admin/suites/{suiteId}/members/{productId} (docs/api.md's four rows)", () => {
    it("Draft revisions lose the product's line items in the same step as the member leaves", async () => {
      const [a, b] = [await product(), await product()];
      const suite = await createSuite(`DRAFTS-${a.id.slice(0, 8)}`, [a.id, b.id]);
      const d1 = await createPlanSet({
        suiteId: suite.id,
        plans: [plan("Small", [a.id, b.id]), plan("Large", [b.id, a.id])],
      });
      const d2 = await createPlanSet({ suiteId: suite.id, plans: [plan("Only", [b.id])] });
      const res = await request("DELETE", `${SUITES}/${suite.id}/members/${b.id}`, { token });
      expect(res.status).toBe(204);
      expect(res.text).toBe("");
      const after1 = (await request("GET", `${PLAN_SETS}/${d1.id}`, { token })).body;
      const after2 = (await request("GET", `${PLAN_SETS}/${d2.id}`, { token })).body;
      expect(productsOf(after1)).toEqual([[a.id], [a.id]]);
      expect(productsOf(after2)).toEqual([[]]);
      expect(after1.status).toBe("Draft");
      expect((await request("GET", `${SUITES}/${suite.id}`, { token })).body.members).toEqual([
        expect.objectContaining({ productId: a.id, sortOrder: 1 }),
      ]);
      expect(await revisions(d1.id)).toHaveLength(2);
    });

    it("a Published revision that still includes the product is not edited: the change lands in a draft copy, created when the suite has no draft", async () => {
      const [a, b] = [await product(), await product()];
      const suite = await createSuite(`PUB-${a.id.slice(0, 8)}`, [a.id, b.id]);
      const published = await move(
        (await createPlanSet({ suiteId: suite.id, plans: [plan("Std", [a.id, b.id])] })).id,
        "Published",
      );
      expect((await request("DELETE", `${SUITES}/${suite.id}/members/${b.id}`, { token })).status).toBe(204);

      const untouched = (await request("GET", `${PLAN_SETS}/${published.id}`, { token })).body;
      expect(untouched).toEqual(published);
      const timeline = await revisions(published.id);
      expect(timeline.map((r) => [r.revision, r.status])).toEqual([
        [2, "Draft"],
        [1, "Published"],
      ]);
      const draft = timeline[0];
      expect(draft).toMatchObject({ sourcePlanSetId: published.id, name: published.name });
      expect(productsOf(draft)).toEqual([[a.id]]);
      expect(draft.plans[0]).toMatchObject({ name: "Std", monthlyPrice: 10, currency: "EUR" });
    });

    it("with a draft already there, the published revision stays as it is and no other draft is made: the draft takes the change", async () => {
      const [a, b] = [await product(), await product()];
      const suite = await createSuite(`PUBDRAFT-${a.id.slice(0, 8)}`, [a.id, b.id]);
      const published = await move(
        (await createPlanSet({ suiteId: suite.id, plans: [plan("Std", [a.id, b.id])] })).id,
        "Published",
      );
      const draft = await createPlanSet({ suiteId: suite.id, plans: [plan("Next", [a.id, b.id])] });
      expect((await request("DELETE", `${SUITES}/${suite.id}/members/${b.id}`, { token })).status).toBe(204);
      expect((await request("GET", `${PLAN_SETS}/${published.id}`, { token })).body).toEqual(published);
      expect(productsOf((await request("GET", `${PLAN_SETS}/${draft.id}`, { token })).body)).toEqual([
        [a.id],
      ]);
      expect((await revisions(published.id)).map((r) => r.id)).toEqual([draft.id, published.id]);
    });

    it("a published revision that does not include the product gets no draft copy", async () => {
      const [a, b] = [await product(), await product()];
      const suite = await createSuite(`PUBNOT-${a.id.slice(0, 8)}`, [a.id, b.id]);
      const published = await move(
        (await createPlanSet({ suiteId: suite.id, plans: [plan("Std", [a.id])] })).id,
        "Published",
      );
      expect((await request("DELETE", `${SUITES}/${suite.id}/members/${b.id}`, { token })).status).toBe(204);
      expect((await revisions(published.id)).map((r) => r.id)).toEqual([published.id]);
    });

    it("archived revisions are left as they are", async () => {
      const [a, b] = [await product(), await product()];
      const suite = await createSuite(`ARCH-${a.id.slice(0, 8)}`, [a.id, b.id]);
      const archived = await move(
        (await createPlanSet({ suiteId: suite.id, plans: [plan("Old", [a.id, b.id])] })).id,
        "Archived",
      );
      expect((await request("DELETE", `${SUITES}/${suite.id}/members/${b.id}`, { token })).status).toBe(204);
      expect((await request("GET", `${PLAN_SETS}/${archived.id}`, { token })).body).toEqual(archived);
      expect(productsOf(archived)).toEqual([[a.id, b.id]]);
      expect((await revisions(archived.id)).map((r) => r.id)).toEqual([archived.id]);
    });

    it("deleting a product that is not a member changes nothing (204); an unknown or foreign suite is 404", async () => {
      const [a, outsider] = [await product(), await product()];
      const suite = await createSuite(`NONMEMBER-${a.id.slice(0, 8)}`, [a.id]);
      const draft = await createPlanSet({ suiteId: suite.id, plans: [plan("Std", [a.id])] });
      const before = (await request("GET", `${SUITES}/${suite.id}`, { token })).body;
      const res = await request("DELETE", `${SUITES}/${suite.id}/members/${outsider.id}`, { token });
      expect(res.status).toBe(204);
      expect(
        (await request("DELETE", `${SUITES}/${suite.id}/members/${crypto.randomUUID()}`, { token })).status,
      ).toBe(204);
      expect((await request("GET", `${SUITES}/${suite.id}`, { token })).body).toEqual(before);
      expect((await request("GET", `${PLAN_SETS}/${draft.id}`, { token })).body).toEqual(draft);
      expectProblem(
        await request("DELETE", `${SUITES}/${crypto.randomUUID()}/members/${a.id}`, { token }),
        404,
        "license.not_found",
      );
    });
  });

  it("PATCH is a merge (absent and null leave fields); a taken code is 409", async () => {
    const suite = await createSuite("PATCH-ME");
    const patched = await request("PATCH", `${SUITES}/${suite.id}`, {
      token,
      body: { name: "Renamed", description: null },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ code: "PATCH-ME", name: "Renamed", description: "" });
    const described = await request("PATCH", `${SUITES}/${suite.id}`, {
      token,
      body: { description: "Office bundle" },
    });
    expect(described.body).toMatchObject({ name: "Renamed", description: "Office bundle" });
    await createSuite("TAKEN-CODE");
    expectProblem(
      await request("PATCH", `${SUITES}/${suite.id}`, { token, body: { code: "TAKEN-CODE" } }),
      409,
      "suite.code_taken",
    );
    expectProblem(
      await request("PATCH", `${SUITES}/${suite.id}`, { token, body: { name: "" } }),
      400,
      "license.validation_error",
    );
  });

  it("DELETE removes a suite that owns nothing (204) and refuses one that owns plan sets (400 suite.in_use)", async () => {
    const a = await product();
    const empty = await createSuite("EMPTY-SUITE", [a.id]);
    expect((await request("DELETE", `${SUITES}/${empty.id}`, { token })).status).toBe(204);
    expectProblem(await request("GET", `${SUITES}/${empty.id}`, { token }), 404, "license.not_found");
    const owning = await createSuite("OWNING-SUITE", [a.id]);
    await createPlanSet({ suiteId: owning.id });
    expectProblem(await request("DELETE", `${SUITES}/${owning.id}`, { token }), 400, "suite.in_use");
    expect((await request("GET", `${SUITES}/${owning.id}`, { token })).body.referencedBy).toEqual({
      planSets: 1,
      addOns: 0,
    });
  });

  it("the list is paginated with a Sieve whitelist (filter, sort) and refuses other fields (400)", async () => {
    const scoped = await createTestTenant("Suite lists");
    const scopedToken = await scoped.token("provision.suite.*");
    const scopedFx = catalogFixture(scoped);
    const p = (await scopedFx.product()) as { id: string };
    for (const code of ["LIST-C", "LIST-A", "LIST-B"]) {
      const members = code === "LIST-B" ? [p.id] : [];
      expect(
        (
          await request("POST", SUITES, {
            token: scopedToken,
            body: { code, name: code.toLowerCase(), memberProductIds: members },
          })
        ).status,
      ).toBe(200);
    }
    const page1 = await request("GET", `${SUITES}?sortOrder=-code&pageSize=2`, { token: scopedToken });
    expect(page1.body).toMatchObject({
      pageNumber: 1,
      pageSize: 2,
      totalCount: 3,
      totalPages: 2,
      hasNextPage: true,
      hasPreviousPage: false,
    });
    expect(page1.body.items.map((s: { code: string }) => s.code)).toEqual(["LIST-C", "LIST-B"]);
    const page2 = await request("GET", `${SUITES}?sortOrder=-code&pageSize=2&pageNumber=2`, {
      token: scopedToken,
    });
    expect(page2.body.items.map((s: { code: string }) => s.code)).toEqual(["LIST-A"]);
    expect(
      (await request("GET", `${SUITES}?filter=code@=*list-a`, { token: scopedToken })).body.totalCount,
    ).toBe(1);
    expect(
      (await request("GET", `${SUITES}?filter=productId==${p.id}`, { token: scopedToken })).body.items.map(
        (s: { code: string }) => s.code,
      ),
    ).toEqual(["LIST-B"]);
    expectProblem(
      await request("GET", `${SUITES}?filter=implicitProductId==${p.id}`, { token: scopedToken }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("GET", `${SUITES}?sortOrder=members`, { token: scopedToken }),
      400,
      "license.validation_error",
    );
  });

  it("every route: 401 without a token, 403 without the suite scope, 404 for another tenant's suite", async () => {
    const a = await product();
    const suite = await createSuite("GUARDED", [a.id]);
    const routes: [string, string, unknown?][] = [
      ["GET", SUITES],
      ["POST", SUITES, { code: "G2", name: "g", memberProductIds: [] }],
      ["GET", `${SUITES}/${suite.id}`],
      ["PATCH", `${SUITES}/${suite.id}`, { name: "x" }],
      ["DELETE", `${SUITES}/${suite.id}`],
      ["POST", `${SUITES}/${suite.id}/members`, { productIds: [a.id] }],
      ["DELETE", `${SUITES}/${suite.id}/members/${a.id}`],
    ];
    const wrongScope = await tenant.token("provision.tag.*");
    const readOnly = await tenant.token("provision.suite.read");
    const other = await createTestTenant("Suite intruder");
    const otherToken = await other.token("provision.suite.*");
    for (const [method, path, body] of routes) {
      expectProblem(await request(method, path, { body }), 401, "auth.unauthenticated");
      expectProblem(await request(method, path, { token: wrongScope, body }), 403, "auth.insufficient_scope");
      if (method !== "GET")
        expectProblem(await request(method, path, { token: readOnly, body }), 403, "auth.insufficient_scope");
      if (path !== SUITES)
        expectProblem(await request(method, path, { token: otherToken, body }), 404, "license.not_found");
    }
    // Nothing of the foreign attempts landed.
    expect((await request("GET", `${SUITES}/${suite.id}`, { token })).body).toMatchObject({
      name: "Suite GUARDED",
      members: [{ productId: a.id }],
    });
    expect(
      (await request("GET", SUITES, { token: otherToken })).body.items.map((s: { id: string }) => s.id),
    ).not.toContain(suite.id);
    expect(await testDb().suite.count({ where: { tenantId: other.tenantId } })).toBe(0);
  });
});
