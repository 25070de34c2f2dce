import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { catalogFixture } from "../../helpers/catalog-pricing.ts";

const SUITES = "/api/v1/provision/admin/suites";
const PLAN_SETS = "/api/v1/provision/admin/usage-plans/plan-sets";

type Entry = { id: string; featureCode: string; name: string; units: string | null };

describe("plan sets", () => {
  let tenant: TestTenant;
  let token: string;
  let fx: ReturnType<typeof catalogFixture>;
  let product: { id: string; productCode: string };
  let second: { id: string };
  let suiteId: string;
  let seats: Entry;
  let edition: Entry;
  let sso: Entry;
  let apiCalls: Entry;
  let config: Entry;

  /** An Absolute plan on the fixture suite's first product. */
  const plan = (name: string, extra: Record<string, unknown> = {}, featureValues: unknown[] = []) => ({
    name,
    pricingMode: "Absolute",
    monthlyPrice: null,
    lineItems: [{ productId: product.id, featureValues }],
    ...extra,
  });
  const create = (body: Record<string, unknown>) =>
    request("POST", PLAN_SETS, { token, body: { suiteId, name: "Plans", ...body } });
  const created = async (body: Record<string, unknown>) => {
    const res = await create(body);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const put = (id: string, body: Record<string, unknown>) =>
    request("PUT", `${PLAN_SETS}/${id}`, { token, body });
  const move = (id: string, status: string) =>
    request("PUT", `${PLAN_SETS}/${id}/status`, { token, body: { status } });
  const get = async (id: string) => (await request("GET", `${PLAN_SETS}/${id}`, { token })).body;
  const planIssues = async (plans: unknown[]) => {
    const res = await create({ plans });
    expectProblem(res, 400, "license.validation_error");
    return res.body.errors as { path: string; message: string }[];
  };

  beforeAll(async () => {
    tenant = await createTestTenant("Plan sets");
    token = await tenant.token(["provision.plan-set.*", "provision.suite.*"]);
    fx = catalogFixture(tenant);
    product = (await fx.product({ name: "Studio" })) as typeof product;
    second = (await fx.product({ name: "Cloud" })) as typeof second;
    await fx.creditBalance(product.id, "ai-credits");
    seats = (await fx.feature({ featureType: "Numeric", units: "seats", name: "Seats" })) as Entry;
    edition = (await fx.feature({
      featureType: "Enumeration",
      enumOptions: [{ value: "pro" }, { value: "team" }],
    })) as Entry;
    sso = (await fx.feature({ featureType: "Boolean" })) as Entry;
    apiCalls = (await fx.feature({
      featureType: "Metered",
      metricName: "api-calls",
      units: "calls",
      name: "API calls",
    })) as Entry;
    config = (await fx.feature({ featureType: "JsonField" })) as Entry;
    const suite = await request("POST", SUITES, {
      token,
      body: { code: "STUDIO-SUITE", name: "Studio suite", memberProductIds: [product.id, second.id] },
    });
    expect(suite.status, suite.text).toBe(200);
    suiteId = suite.body.id;
  });

  describe("revisions and statuses", () => {
    it("a new plan set is a Draft revision with a revisionDate, numbered in its suite's timeline", async () => {
      const before = Date.now();
      const planSet = await created({
        name: "Launch plans",
        description: "First try",
        plans: [plan("Free", { monthlyPrice: 0 })],
      });
      expect(planSet).toMatchObject({
        suiteId,
        suiteName: "Studio suite",
        suiteIsImplicit: false,
        name: "Launch plans",
        description: "First try",
        status: "Draft",
        sourcePlanSetId: null,
        publishedAt: null,
        archivedAt: null,
      });
      expect(planSet.revision).toBeGreaterThanOrEqual(1);
      expect(Date.parse(planSet.revisionDate)).toBeGreaterThanOrEqual(before - 5_000);
      expect(await get(planSet.id)).toEqual(planSet);
    });

    it("PUT on a Draft edits it in place: plans null keeps the plans, a list replaces them", async () => {
      const draft = await created({ plans: [plan("A"), plan("B")] });
      const renamed = await put(draft.id, { name: "Renamed", description: "d", plans: null });
      expect(renamed.status, renamed.text).toBe(200);
      expect(renamed.body).toMatchObject({
        id: draft.id,
        name: "Renamed",
        description: "d",
        status: "Draft",
      });
      expect(renamed.body.plans.map((p: { name: string }) => p.name)).toEqual(["A", "B"]);
      const replaced = await put(draft.id, { name: "Renamed", status: "Draft", plans: [plan("C")] });
      expect(replaced.body.plans.map((p: { name: string }) => p.name)).toEqual(["C"]);
      expect(replaced.body.description).toBe("");
    });

    it("PUT on a Published revision lands on a Draft copy returned in the response; the published revision and its status are unchanged", async () => {
      const draft = await created({
        name: "Live",
        plans: [
          plan("Basic", { monthlyPrice: 5, currency: "USD" }, [
            { featureCode: seats.featureCode, value: "3" },
          ]),
        ],
      });
      const published = (await move(draft.id, "Published")).body;
      expect(published.status).toBe("Published");
      const edit = await put(published.id, {
        name: "Live v2",
        description: "cheaper",
        status: "Published",
        plans: null,
      });
      expect(edit.status, edit.text).toBe(200);
      const copy = edit.body;
      expect(copy.id).not.toBe(published.id);
      expect(copy).toMatchObject({
        status: "Draft",
        name: "Live v2",
        description: "cheaper",
        sourcePlanSetId: published.id,
        suiteId,
        publishedAt: null,
      });
      expect(copy.revision).toBeGreaterThan(published.revision);
      // plans: null on a published revision: the copy carries the published plans.
      expect(copy.plans.map(({ id: _id, ...rest }: { id: string }) => rest)).toEqual(
        published.plans.map(({ id: _id, ...rest }: { id: string }) => rest),
      );
      expect(await get(published.id)).toEqual(published);

      const withPlans = await put(published.id, {
        name: "Live v3",
        plans: [plan("Pro", { monthlyPrice: 50, currency: "USD" })],
      });
      expect(withPlans.body).toMatchObject({ status: "Draft", sourcePlanSetId: published.id });
      expect(withPlans.body.plans.map((p: { name: string }) => p.name)).toEqual(["Pro"]);
      expect(await get(published.id)).toEqual(published);
    });

    it("PUT on a Published revision asking to archive it is refused (400) and changes nothing", async () => {
      const published = (await move((await created({ plans: [plan("X")] })).id, "Published")).body;
      const before = (await request("GET", `${PLAN_SETS}/${published.id}/revisions?pageSize=100`, { token }))
        .body.totalCount;
      expectProblem(
        await put(published.id, { name: "Retire", status: "Archived" }),
        400,
        "plan_set.status_change_through_edit",
      );
      expect(await get(published.id)).toEqual(published);
      expect(
        (await request("GET", `${PLAN_SETS}/${published.id}/revisions?pageSize=100`, { token })).body
          .totalCount,
      ).toBe(before);
    });

    it("PUT .../status is the only way to move a revision: a Draft edit naming another status is refused (400)", async () => {
      const draft = await created({ plans: [plan("X")] });
      expectProblem(
        await put(draft.id, { name: "Go live", status: "Published" }),
        400,
        "plan_set.status_change_through_edit",
      );
      expectProblem(
        await put(draft.id, { name: "Drop", status: "Archived" }),
        400,
        "plan_set.status_change_through_edit",
      );
      expect((await get(draft.id)).status).toBe("Draft");
      expectProblem(await put(draft.id, { name: "x", status: "Retired" }), 400, "license.validation_error");
    });

    it("an Archived revision is read-only (400)", async () => {
      const archived = (await move((await created({ plans: [plan("X")] })).id, "Archived")).body;
      expect(archived).toMatchObject({ status: "Archived" });
      expect(archived.archivedAt).not.toBeNull();
      expectProblem(await put(archived.id, { name: "Revive", plans: [] }), 400, "plan_set.archived");
      expectProblem(await put(archived.id, { name: "Revive", status: "Archived" }), 400, "plan_set.archived");
      expect(await get(archived.id)).toEqual(archived);
    });

    it("Draft → Published archives the suite's previously published revision", async () => {
      const suite = await request("POST", SUITES, {
        token,
        body: { code: "PUBLISH-SUITE", name: "Publish", memberProductIds: [product.id] },
      });
      const first = (
        await request("POST", PLAN_SETS, {
          token,
          body: { suiteId: suite.body.id, name: "One", plans: [plan("A")] },
        })
      ).body;
      const secondSet = (
        await request("POST", PLAN_SETS, {
          token,
          body: { suiteId: suite.body.id, name: "Two", plans: [plan("B")] },
        })
      ).body;
      const p1 = await move(first.id, "Published");
      expect(p1.status, p1.text).toBe(200);
      expect(p1.body).toMatchObject({ status: "Published", archivedAt: null });
      expect(p1.body.publishedAt).not.toBeNull();
      const p2 = await move(secondSet.id, "Published");
      expect(p2.body.status).toBe("Published");
      const old = await get(first.id);
      expect(old).toMatchObject({ status: "Archived" });
      expect(old.archivedAt).not.toBeNull();
      const timeline = (await request("GET", `${PLAN_SETS}/${first.id}/revisions`, { token })).body;
      expect(
        timeline.items.map((r: { name: string; status: string; revision: number }) => [
          r.revision,
          r.name,
          r.status,
        ]),
      ).toEqual([
        [2, "Two", "Published"],
        [1, "One", "Archived"],
      ]);
      expect(timeline.items.filter((r: { status: string }) => r.status === "Published")).toHaveLength(1);
    });

    it("allowed moves: Published → Archived and Draft → Archived; nothing leaves Archived; Published → Draft is refused; the current status is a no-op", async () => {
      const published = (await move((await created({ plans: [plan("X")] })).id, "Published")).body;
      expectProblem(await move(published.id, "Draft"), 400, "plan_set.invalid_status_transition");
      const same = await move(published.id, "Published");
      expect(same.status).toBe(200);
      expect(same.body).toEqual(published);
      const archived = await move(published.id, "Archived");
      expect(archived.body.status).toBe("Archived");
      for (const status of ["Draft", "Published"])
        expectProblem(await move(published.id, status), 400, "plan_set.invalid_status_transition");
      expect((await move(published.id, "Archived")).status).toBe(200);
      const draft = await created({ plans: [plan("Y")] });
      expect((await move(draft.id, "Archived")).body.status).toBe("Archived");
      expectProblem(await move(draft.id, "Nope"), 400, "license.validation_error");
    });

    it("a revision without plans cannot be published (400)", async () => {
      const empty = await created({ plans: [] });
      expectProblem(await move(empty.id, "Published"), 400, "plan_set.not_publishable");
      expect((await get(empty.id)).status).toBe("Draft");
    });

    it("GET .../{planSetId}/revisions lists the suite's timeline, latest first, paginated and filterable", async () => {
      const suite = (
        await request("POST", SUITES, {
          token,
          body: { code: "TIMELINE", name: "Timeline", memberProductIds: [product.id] },
        })
      ).body;
      const r1 = (
        await request("POST", PLAN_SETS, {
          token,
          body: { suiteId: suite.id, name: "R1", plans: [plan("A")] },
        })
      ).body;
      await move(r1.id, "Published");
      const r2 = (await put(r1.id, { name: "R2" })).body;
      const r3 = (await request("POST", PLAN_SETS, { token, body: { suiteId: suite.id, name: "R3" } })).body;
      const all = (await request("GET", `${PLAN_SETS}/${r2.id}/revisions`, { token })).body;
      expect(all.items.map((r: { id: string }) => r.id)).toEqual([r3.id, r2.id, r1.id]);
      expect(all.items.map((r: { revision: number }) => r.revision)).toEqual([3, 2, 1]);
      const drafts = (
        await request(
          "GET",
          `${PLAN_SETS}/${r1.id}/revisions?filter=status==Draft&sortOrder=revision&pageSize=1`,
          { token },
        )
      ).body;
      expect(drafts).toMatchObject({ totalCount: 2, totalPages: 2, hasNextPage: true });
      expect(drafts.items[0].id).toBe(r2.id);
      expectProblem(
        await request("GET", `${PLAN_SETS}/${crypto.randomUUID()}/revisions`, { token }),
        404,
        "license.not_found",
      );
    });

    it("GET /admin/usage-plans/plan-sets is paginated with a Sieve whitelist", async () => {
      const mine = await created({ name: "Sieve me", plans: [plan("A")] });
      const byName = (await request("GET", `${PLAN_SETS}?filter=name==Sieve me,status==Draft`, { token }))
        .body;
      expect(byName.items.map((p: { id: string }) => p.id)).toEqual([mine.id]);
      const bySuite = (
        await request("GET", `${PLAN_SETS}?filter=suiteId==${suiteId}&sortOrder=-revision&pageSize=2`, {
          token,
        })
      ).body;
      expect(bySuite.items).toHaveLength(2);
      expect(bySuite.items[0].revision).toBeGreaterThan(bySuite.items[1].revision);
      expect(
        (await request("GET", `${PLAN_SETS}?filter=productId==${second.id}`, { token })).body.totalCount,
      ).toBeGreaterThan(0);
      const bySuiteName = (
        await request("GET", `${PLAN_SETS}?filter=name|suiteName@=*studio suite&sortOrder=-suiteName,name`, {
          token,
        })
      ).body;
      expect(bySuiteName.totalCount).toBeGreaterThan(0);
      expect(bySuiteName.items.every((p: { suiteName: string }) => p.suiteName === "Studio suite")).toBe(
        true,
      );
      expectProblem(
        await request("GET", `${PLAN_SETS}?filter=plans@=x`, { token }),
        400,
        "license.validation_error",
      );
      expectProblem(
        await request("GET", `${PLAN_SETS}?sortOrder=currency`, { token }),
        400,
        "license.validation_error",
      );
    });
  });

  describe("plans", () => {
    it("one pricingMode per set", async () => {
      const issues = await planIssues([plan("A"), plan("B", { pricingMode: "Relative" })]);
      expect(issues).toContainEqual({
        path: "body.plans.1.pricingMode",
        message: expect.stringContaining("same pricingMode"),
      });
      expectProblem(
        await create({ plans: [plan("A", { pricingMode: "Flat" })] }),
        400,
        "license.validation_error",
      );
    });

    it("an Absolute plan refuses relativeWeight; a Relative plan refuses monthlyPrice and currency", async () => {
      expect(await planIssues([plan("A", { relativeWeight: 1 })])).toContainEqual(
        expect.objectContaining({ path: "body.plans.0.relativeWeight" }),
      );
      const relative = await planIssues([
        plan("R", { pricingMode: "Relative", monthlyPrice: 10, currency: "EUR" }),
      ]);
      expect(relative.map((i) => i.path)).toEqual(
        expect.arrayContaining(["body.plans.0.monthlyPrice", "body.plans.0.currency"]),
      );
      const ok = await created({
        plans: [
          plan("R1", { pricingMode: "Relative", relativeWeight: 2 }),
          plan("R2", { pricingMode: "Relative", relativeWeight: 0.5 }),
        ],
      });
      expect(
        ok.plans.map((p: { pricingMode: string; relativeWeight: number; monthlyPrice: null }) => [
          p.pricingMode,
          p.relativeWeight,
          p.monthlyPrice,
        ]),
      ).toEqual([
        ["Relative", 2, null],
        ["Relative", 0.5, null],
      ]);
    });

    it("monthlyPrice null is not 0: null = not priced yet, 0 = free", async () => {
      const set = await created({
        plans: [
          plan("Unpriced", { monthlyPrice: null }),
          plan("Free", { monthlyPrice: 0 }),
          plan("Paid", { monthlyPrice: 12.5, currency: "EUR" }),
        ],
      });
      expect(
        set.plans.map((p: { name: string; monthlyPrice: number | null }) => [p.name, p.monthlyPrice]),
      ).toEqual([
        ["Unpriced", null],
        ["Free", 0],
        ["Paid", 12.5],
      ]);
      const absent = await created({ plans: [{ name: "NoPrice", pricingMode: "Absolute", lineItems: [] }] });
      expect(absent.plans[0].monthlyPrice).toBeNull();
      expect(await planIssues([plan("Neg", { monthlyPrice: -1, currency: "EUR" })])).toContainEqual(
        expect.objectContaining({ path: "body.plans.0.monthlyPrice" }),
      );
    });

    it("currency is an ISO 4217 code, required when monthlyPrice is above 0", async () => {
      expect(await planIssues([plan("Paid", { monthlyPrice: 10 })])).toContainEqual({
        path: "body.plans.0.currency",
        message: expect.stringContaining("ISO 4217"),
      });
      expect(await planIssues([plan("Paid", { monthlyPrice: 10, currency: "XYZ" })])).toContainEqual({
        path: "body.plans.0.currency",
        message: expect.stringContaining("not an ISO 4217"),
      });
      const set = await created({
        plans: [plan("Paid", { monthlyPrice: 10, currency: "chf" }), plan("Free", { monthlyPrice: 0 })],
      });
      expect(set.plans.map((p: { currency: string | null }) => p.currency)).toEqual(["CHF", null]);
    });

    it("relativeWeight null is not 0: null = not weighted yet, 0 = carries no weight", async () => {
      const set = await created({
        plans: [
          plan("Unweighted", { pricingMode: "Relative" }),
          plan("Zero", { pricingMode: "Relative", relativeWeight: 0 }),
        ],
      });
      expect(set.plans.map((p: { relativeWeight: number | null }) => p.relativeWeight)).toEqual([null, 0]);
    });

    it("plan names are unique in a set; plans keep their sortOrder", async () => {
      expect(await planIssues([plan("Same"), plan("same")])).toContainEqual(
        expect.objectContaining({ path: "body.plans.1.name" }),
      );
      const set = await created({
        plans: [plan("Second", { sortOrder: 2 }), plan("First", { sortOrder: 1 })],
      });
      expect(set.plans.map((p: { name: string; sortOrder: number }) => [p.name, p.sortOrder])).toEqual([
        ["First", 1],
        ["Second", 2],
      ]);
    });

    it("line items need a productId, except when a plan set is created for a suite of one member (the server stamps it)", async () => {
      const noProduct = [{ name: "A", pricingMode: "Absolute", lineItems: [{ featureValues: [] }] }];
      expect(await planIssues(noProduct)).toContainEqual(
        expect.objectContaining({ path: "plans.0.lineItems.0.productId" }),
      );
      const solo = (
        await request("POST", SUITES, {
          token,
          body: { code: "SOLO-SUITE", name: "Solo", memberProductIds: [product.id] },
        })
      ).body;
      const stamped = await request("POST", PLAN_SETS, {
        token,
        body: { suiteId: solo.id, name: "Solo plans", plans: noProduct },
      });
      expect(stamped.status, stamped.text).toBe(200);
      expect(stamped.body.plans[0].lineItems).toEqual([
        { productId: product.id, productCode: product.productCode, included: true, featureValues: [] },
      ]);
      // Only creation stamps: an edit names the product of every line item.
      const edit = await put(stamped.body.id, { name: "Solo plans", plans: noProduct });
      expectProblem(edit, 400, "license.validation_error");
      expect(edit.body.errors).toContainEqual(
        expect.objectContaining({ path: "plans.0.lineItems.0.productId" }),
      );
    });

    it("a line item names a member of the suite, once per plan", async () => {
      const outsider = (await fx.product()) as { id: string };
      expect(
        await planIssues([{ name: "A", pricingMode: "Absolute", lineItems: [{ productId: outsider.id }] }]),
      ).toContainEqual({
        path: "plans.0.lineItems.0.productId",
        message: expect.stringContaining("not a member"),
      });
      expect(
        await planIssues([
          {
            name: "A",
            pricingMode: "Absolute",
            lineItems: [{ productId: product.id }, { productId: product.id }],
          },
        ]),
      ).toContainEqual(expect.objectContaining({ path: "plans.0.lineItems.1.productId" }));
      const set = await created({
        plans: [
          {
            name: "Both",
            pricingMode: "Absolute",
            lineItems: [{ productId: product.id }, { productId: second.id, included: false }],
          },
        ],
      });
      expect(
        set.plans[0].lineItems.map((li: { productId: string; included: boolean }) => [
          li.productId,
          li.included,
        ]),
      ).toEqual([
        [product.id, true],
        [second.id, false],
      ]);
    });

    it("feature values use the lowercase metricName; a feature code in its place is refused", async () => {
      const code = await planIssues([
        plan("A", {}, [{ featureCode: apiCalls.featureCode, metricName: "API-CALLS", value: "100" }]),
      ]);
      expect(code).toContainEqual({
        path: "body.plans.0.lineItems.0.featureValues.0.metricName",
        message: expect.stringContaining("feature code is not accepted"),
      });
      const wrong = await planIssues([
        plan("A", {}, [{ featureCode: apiCalls.featureCode, metricName: "other-metric", value: "100" }]),
      ]);
      expect(wrong).toContainEqual({
        path: "plans.0.lineItems.0.featureValues.0.metricName",
        message: expect.stringContaining('"api-calls"'),
      });
      const set = await created({
        plans: [
          plan("A", {}, [
            { featureCode: apiCalls.featureCode, metricName: "api-calls", value: "100" },
            { featureCode: seats.featureCode.toLowerCase(), value: "2" },
          ]),
        ],
      });
      expect(
        set.plans[0].lineItems[0].featureValues.map(
          (fv: { featureCode: string; metricName: string | null }) => [fv.featureCode, fv.metricName],
        ),
      ).toEqual([
        [apiCalls.featureCode, "api-calls"],
        [seats.featureCode, null],
      ]);
      // Omitted: taken from the catalog entry.
      const defaulted = await created({
        plans: [plan("B", {}, [{ featureCode: apiCalls.featureCode, value: "100" }])],
      });
      expect(defaulted.plans[0].lineItems[0].featureValues[0].metricName).toBe("api-calls");
    });

    it("featureName and units are server-populated (ignored on write) and null when the featureCode resolves to nothing", async () => {
      const entry = (await fx.feature({ featureType: "Numeric", units: "GB", name: "Storage" })) as Entry;
      const set = await created({
        plans: [
          plan("A", {}, [
            { featureCode: entry.featureCode, value: "10", featureName: "Forged", units: "TB" },
          ]),
        ],
      });
      expect(set.plans[0].lineItems[0].featureValues[0]).toMatchObject({
        featureCode: entry.featureCode,
        featureName: "Storage",
        units: "GB",
      });
      // The entry goes away (a soft delete, as an import or a later clean-up would leave it).
      await testDb().featureCatalogEntry.update({
        where: { id: entry.id },
        data: { isDeleted: true, activeCodeKey: null },
      });
      const read = await get(set.id);
      expect(read.plans[0].lineItems[0].featureValues[0]).toMatchObject({
        featureCode: entry.featureCode,
        featureName: null,
        units: null,
        value: "10",
      });
      // Writing a code that resolves to nothing is refused.
      expect(
        await planIssues([plan("A", {}, [{ featureCode: "NO_SUCH_FEATURE", value: "1" }])]),
      ).toContainEqual({
        path: "plans.0.lineItems.0.featureValues.0.featureCode",
        message: expect.stringContaining("NO_SUCH_FEATURE"),
      });
    });

    it("value is validated per feature type", async () => {
      const bad = await planIssues([
        plan("A", {}, [
          { featureCode: seats.featureCode, value: "many" },
          { featureCode: edition.featureCode, value: "enterprise" },
          { featureCode: sso.featureCode, value: "yes" },
          { featureCode: config.featureCode, value: "{not json" },
          { featureCode: apiCalls.featureCode, value: "-1" },
        ]),
      ]);
      expect(bad.map((i) => i.path)).toEqual(
        [0, 1, 2, 3, 4].map((k) => `plans.0.lineItems.0.featureValues.${k}.value`),
      );
      const good = await created({
        plans: [
          plan("A", {}, [
            { featureCode: seats.featureCode, value: "25" },
            { featureCode: edition.featureCode, value: "team" },
            { featureCode: sso.featureCode, value: "true" },
            { featureCode: config.featureCode, value: '{"theme":"dark"}' },
            { featureCode: apiCalls.featureCode, value: "1000" },
          ]),
        ],
      });
      expect(good.plans[0].lineItems[0].featureValues.map((fv: { value: string }) => fv.value)).toEqual([
        "25",
        "team",
        "true",
        '{"theme":"dark"}',
        "1000",
      ]);
      expect(
        await planIssues([
          plan("A", {}, [
            { featureCode: seats.featureCode, value: "1" },
            { featureCode: seats.featureCode, value: "2" },
          ]),
        ]),
      ).toContainEqual(expect.objectContaining({ path: "plans.0.lineItems.0.featureValues.1.featureCode" }));
    });

    it("usageTiers follow the tier rules; fundingBalanceMetric names a credit balance of the suite's products", async () => {
      const tiers = [
        { name: "Included", startUsage: 0, endUsage: 1000, quotaUsagePolicy: "None" },
        {
          name: "Overage",
          startUsage: 1000,
          endUsage: null,
          creditsPerUnitOfConsumption: 0.5,
          quotaUsagePolicy: "AllowWithOverage",
          fundingBalanceMetric: "ai-credits",
        },
      ];
      const set = await created({
        plans: [
          plan("Metered", {}, [{ featureCode: apiCalls.featureCode, value: "1000", usageTiers: tiers }]),
        ],
      });
      expect(set.plans[0].lineItems[0].featureValues[0].usageTiers).toEqual([
        expect.objectContaining({
          name: "Included",
          startUsage: 0,
          endUsage: 1000,
          fundingBalanceMetric: "",
          quotaUsageLevel: "None",
        }),
        expect.objectContaining({
          name: "Overage",
          startUsage: 1000,
          endUsage: null,
          creditsPerUnitOfConsumption: 0.5,
          fundingBalanceMetric: "ai-credits",
        }),
      ]);
      const gap = await planIssues([
        plan("G", {}, [
          {
            featureCode: apiCalls.featureCode,
            value: "1",
            usageTiers: [tiers[0], { ...tiers[1], startUsage: 1500 }],
          },
        ]),
      ]);
      expect(gap).toContainEqual(
        expect.objectContaining({ path: "plans.0.lineItems.0.featureValues.0.usageTiers.1.startUsage" }),
      );
      const unknownBalance = await planIssues([
        plan("U", {}, [
          {
            featureCode: apiCalls.featureCode,
            value: "1",
            usageTiers: [tiers[0], { ...tiers[1], fundingBalanceMetric: "gold" }],
          },
        ]),
      ]);
      expect(unknownBalance).toContainEqual({
        path: "plans.0.lineItems.0.featureValues.0.usageTiers.1.fundingBalanceMetric",
        message: expect.stringContaining("ai-credits"),
      });
      const wrongPolicy = await planIssues([
        plan("W", {}, [
          {
            featureCode: apiCalls.featureCode,
            value: "1",
            usageTiers: [{ ...tiers[0], endUsage: null, fundingBalanceMetric: "ai-credits" }],
          },
        ]),
      ]);
      expect(wrongPolicy).toContainEqual(
        expect.objectContaining({
          path: "plans.0.lineItems.0.featureValues.0.usageTiers.0.fundingBalanceMetric",
        }),
      );
      const notMetered = await planIssues([
        plan("N", {}, [{ featureCode: seats.featureCode, value: "1", usageTiers: [tiers[0]] }]),
      ]);
      expect(notMetered).toContainEqual(
        expect.objectContaining({ path: "plans.0.lineItems.0.featureValues.0.usageTiers" }),
      );
    });

    it("enforcementType is SingleValue by default; Percentage needs a positive value (the 100% base); other values are refused", async () => {
      const tiers = [
        { name: "Soft", startUsage: 0, startPercentage: 0, endUsage: 800, endPercentage: 80 },
        {
          name: "Hard",
          startUsage: 800,
          startPercentage: 80,
          endUsage: null,
          endPercentage: 0,
          quotaUsagePolicy: "Block",
        },
      ];
      const set = await created({
        plans: [
          plan("P", {}, [
            {
              featureCode: apiCalls.featureCode,
              value: "1000",
              enforcementType: "Percentage",
              usageTiers: tiers,
            },
            { featureCode: seats.featureCode, value: "1" },
          ]),
        ],
      });
      expect(
        set.plans[0].lineItems[0].featureValues.map((fv: { enforcementType: string }) => fv.enforcementType),
      ).toEqual(["Percentage", "SingleValue"]);
      expect(
        await planIssues([
          plan("P", {}, [{ featureCode: apiCalls.featureCode, value: null, enforcementType: "Percentage" }]),
        ]),
      ).toContainEqual(expect.objectContaining({ path: "plans.0.lineItems.0.featureValues.0.value" }));
      expect(
        await planIssues([
          plan("P", {}, [{ featureCode: apiCalls.featureCode, value: "1", enforcementType: "Hard" }]),
        ]),
      ).toContainEqual(
        expect.objectContaining({ path: "body.plans.0.lineItems.0.featureValues.0.enforcementType" }),
      );
    });
  });

  it("invalid input: neither or both of suiteId and productId, empty name (400); unknown or foreign suite or product (404)", async () => {
    expectProblem(
      await request("POST", PLAN_SETS, { token, body: { name: "x" } }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("POST", PLAN_SETS, { token, body: { name: "x", suiteId, productId: product.id } }),
      400,
      "license.validation_error",
    );
    expectProblem(await create({ name: "" }), 400, "license.validation_error");
    expectProblem(
      await request("POST", PLAN_SETS, { token, body: { name: "x", suiteId: crypto.randomUUID() } }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", PLAN_SETS, { token, body: { name: "x", productId: crypto.randomUUID() } }),
      404,
      "license.not_found",
    );
    const other = await createTestTenant("Plan set foreign");
    const otherFx = catalogFixture(other);
    const foreignProduct = (await otherFx.product()) as { id: string };
    expectProblem(
      await request("POST", PLAN_SETS, { token, body: { name: "x", productId: foreignProduct.id } }),
      404,
      "license.not_found",
    );
  });

  it("every route: 401 without a token, 403 without the plan-set scope, 404 for another tenant's revision (nothing leaks)", async () => {
    const mine = await created({ plans: [plan("A")] });
    const routes: [string, string, unknown?][] = [
      ["GET", PLAN_SETS],
      ["POST", PLAN_SETS, { suiteId, name: "x" }],
      ["GET", `${PLAN_SETS}/${mine.id}`],
      ["PUT", `${PLAN_SETS}/${mine.id}`, { name: "x" }],
      ["PUT", `${PLAN_SETS}/${mine.id}/status`, { status: "Published" }],
      ["GET", `${PLAN_SETS}/${mine.id}/revisions`],
    ];
    const wrongScope = await tenant.token("provision.suite.*");
    const readOnly = await tenant.token("provision.plan-set.read");
    const other = await createTestTenant("Plan set intruder");
    const otherToken = await other.token(["provision.plan-set.*"]);
    for (const [method, path, body] of routes) {
      expectProblem(await request(method, path, { body }), 401, "auth.unauthenticated");
      expectProblem(await request(method, path, { token: wrongScope, body }), 403, "auth.insufficient_scope");
      if (method !== "GET")
        expectProblem(await request(method, path, { token: readOnly, body }), 403, "auth.insufficient_scope");
      if (path !== PLAN_SETS)
        expectProblem(await request(method, path, { token: otherToken, body }), 404, "license.not_found");
    }
    // Another tenant cannot put a plan set in this tenant's suite, and sees none of its revisions.
    expectProblem(
      await request("POST", PLAN_SETS, { token: otherToken, body: { suiteId, name: "x" } }),
      404,
      "license.not_found",
    );
    expect((await request("GET", PLAN_SETS, { token: otherToken })).body.totalCount).toBe(0);
    expect(await get(mine.id)).toEqual(mine);
  });
});
