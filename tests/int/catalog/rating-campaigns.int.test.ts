import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, type TestTenant } from "../../helpers/api.ts";
import { catalogFixture } from "../../helpers/catalog-pricing.ts";

const CAMPAIGNS = "/api/v1/provision/admin/rating-campaigns";

type Entry = { id: string; featureCode: string; name: string };

const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

describe("rating campaigns", () => {
  let tenant: TestTenant;
  let token: string;
  let fx: ReturnType<typeof catalogFixture>;
  let export_: Entry;
  let sync: Entry;
  let themes: Entry;

  const create = (body: Record<string, unknown>) =>
    request("POST", CAMPAIGNS, { token, body: { name: "Ask", ...body } });
  const created = async (body: Record<string, unknown> = {}) => {
    const res = await create(body);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    tenant = await createTestTenant("Rating campaigns");
    token = await tenant.token("provision.rating-campaign.*");
    fx = catalogFixture(tenant);
    export_ = (await fx.feature({ featureType: "Boolean", name: "PDF export" })) as Entry;
    sync = (await fx.feature({ featureType: "Boolean", name: "Cloud sync" })) as Entry;
    themes = (await fx.feature({ featureType: "Boolean", name: "Themes" })) as Entry;
  });

  it("creates a campaign whose targets resolve featureCode and featureName, asked by priority (lower first, null last)", async () => {
    const campaign = await created({
      name: "Spring feedback",
      description: "What do you think?",
      isEnabled: true,
      targets: [
        { featureCatalogId: themes.id, question: null, priority: null },
        { featureCatalogId: sync.id, question: "How is sync?", priority: 2 },
        { featureCatalogId: export_.id, question: "", priority: 1 },
      ],
    });
    expect(campaign).toMatchObject({
      name: "Spring feedback",
      description: "What do you think?",
      isEnabled: true,
      startsAt: null,
      endsAt: null,
      isRunning: true,
      offers: [],
      revisionNumber: 1,
    });
    expect(campaign.targets).toEqual([
      {
        featureCatalogId: export_.id,
        featureCode: export_.featureCode,
        featureName: "PDF export",
        question: null,
        priority: 1,
      },
      {
        featureCatalogId: sync.id,
        featureCode: sync.featureCode,
        featureName: "Cloud sync",
        question: "How is sync?",
        priority: 2,
      },
      {
        featureCatalogId: themes.id,
        featureCode: themes.featureCode,
        featureName: "Themes",
        question: null,
        priority: null,
      },
    ]);
    expect(Date.parse(campaign.creationTimeStamp)).not.toBeNaN();
    expect(Date.parse(campaign.lastUpdateTimeStamp)).not.toBeNaN();
    expect((await request("GET", `${CAMPAIGNS}/${campaign.id}`, { token })).body).toEqual(campaign);
  });

  it("isRunning is computed: enabled and now inside [startsAt, endsAt); null bounds are open", async () => {
    const cases: [Record<string, unknown>, boolean][] = [
      [{ isEnabled: true }, true],
      [{ isEnabled: false }, false],
      [{ isEnabled: true, startsAt: at(-HOUR), endsAt: at(HOUR) }, true],
      [{ isEnabled: true, startsAt: at(HOUR) }, false],
      [{ isEnabled: true, endsAt: at(-HOUR) }, false],
      [{ isEnabled: true, startsAt: at(-HOUR) }, true],
      [{ isEnabled: true, endsAt: at(HOUR) }, true],
      [{ isEnabled: false, startsAt: at(-HOUR), endsAt: at(HOUR) }, false],
    ];
    for (const [body, running] of cases)
      expect((await created({ name: "Window", ...body })).isRunning, JSON.stringify(body)).toBe(running);
    const runningOnes = (
      await request("GET", `${CAMPAIGNS}?filter=name==Window,isRunning==true&pageSize=100`, { token })
    ).body;
    expect(runningOnes.totalCount).toBe(4);
    expect(runningOnes.items.every((c: { isRunning: boolean }) => c.isRunning)).toBe(true);
    const idle = (
      await request("GET", `${CAMPAIGNS}?filter=name==Window,isRunning==false&pageSize=100`, { token })
    ).body;
    expect(idle.totalCount).toBe(4);
    expect(idle.items.every((c: { isRunning: boolean }) => !c.isRunning)).toBe(true);
  });

  it("offers are kept by id; an empty list asks everyone; a name is null when the offer no longer exists", async () => {
    const everyone = await created({ offers: [] });
    expect(everyone.offers).toEqual([]);
    const offerId = crypto.randomUUID();
    const targeted = await created({ offers: [{ offerId }] });
    expect(targeted.offers).toEqual([{ offerId, name: null, version: null }]);
    expectProblem(await create({ offers: [{ offerId }, { offerId }] }), 400, "license.validation_error");
  });

  it("PUT replaces the campaign (targets and offers null keep them); a stale revisionNumber answers 409 and changes nothing", async () => {
    const campaign = await created({
      description: "keep?",
      targets: [{ featureCatalogId: sync.id, priority: 1 }],
      offers: [{ offerId: crypto.randomUUID() }],
    });
    const put = await request("PUT", `${CAMPAIGNS}/${campaign.id}`, {
      token,
      body: {
        name: "Renamed",
        isEnabled: true,
        startsAt: at(-HOUR),
        targets: null,
        offers: null,
        revisionNumber: 1,
      },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({
      name: "Renamed",
      description: null,
      isEnabled: true,
      endsAt: null,
      isRunning: true,
      revisionNumber: 2,
      targets: campaign.targets,
      offers: campaign.offers,
    });
    const stale = await request("PUT", `${CAMPAIGNS}/${campaign.id}`, {
      token,
      body: { name: "Stale", isEnabled: false, revisionNumber: 1 },
    });
    expectProblem(stale, 409, "concurrency.revision_mismatch");
    expect((await request("GET", `${CAMPAIGNS}/${campaign.id}`, { token })).body).toEqual(put.body);
    const replaced = await request("PUT", `${CAMPAIGNS}/${campaign.id}`, {
      token,
      body: {
        name: "Renamed",
        isEnabled: false,
        targets: [{ featureCatalogId: themes.id, question: "Nice?" }],
        offers: [],
      },
    });
    expect(replaced.body).toMatchObject({
      isRunning: false,
      revisionNumber: 3,
      offers: [],
      targets: [expect.objectContaining({ featureCatalogId: themes.id, question: "Nice?", priority: null })],
    });
  });

  it("invalid input is refused with field errors (400); an unknown or foreign catalog entry is 404", async () => {
    const bad = await create({ startsAt: at(HOUR), endsAt: at(-HOUR) });
    expectProblem(bad, 400, "license.validation_error");
    expect(bad.body.errors).toContainEqual(expect.objectContaining({ path: "body.endsAt" }));
    for (const body of [
      { name: "" },
      { startsAt: "tomorrow" },
      { targets: [{ featureCatalogId: sync.id }, { featureCatalogId: sync.id }] },
      { targets: [{ featureCatalogId: sync.id, priority: 1.5 }] },
    ]) {
      expectProblem(await create(body), 400, "license.validation_error");
    }
    expectProblem(
      await create({ targets: [{ featureCatalogId: crypto.randomUUID() }] }),
      404,
      "license.not_found",
    );
    const foreign = (await catalogFixture(await createTestTenant("Foreign entry")).feature({
      featureType: "Boolean",
    })) as Entry;
    expectProblem(await create({ targets: [{ featureCatalogId: foreign.id }] }), 404, "license.not_found");
    const campaign = await created();
    expectProblem(
      await request("PUT", `${CAMPAIGNS}/${campaign.id}`, { token, body: { name: "x" } }),
      400,
      "license.validation_error",
    );
  });

  it("DELETE removes the campaign (204), then it is 404", async () => {
    const campaign = await created({ targets: [{ featureCatalogId: sync.id }] });
    const res = await request("DELETE", `${CAMPAIGNS}/${campaign.id}`, { token });
    expect(res.status).toBe(204);
    expectProblem(await request("GET", `${CAMPAIGNS}/${campaign.id}`, { token }), 404, "license.not_found");
    expectProblem(
      await request("DELETE", `${CAMPAIGNS}/${campaign.id}`, { token }),
      404,
      "license.not_found",
    );
  });

  it("the list is paginated with a Sieve whitelist", async () => {
    const scoped = await createTestTenant("Campaign lists");
    const scopedToken = await scoped.token("provision.rating-campaign.*");
    for (const name of ["Beta", "Alpha", "Gamma"]) {
      expect(
        (
          await request("POST", CAMPAIGNS, {
            token: scopedToken,
            body: { name, isEnabled: name !== "Gamma" },
          })
        ).status,
      ).toBe(200);
    }
    const page = (await request("GET", `${CAMPAIGNS}?sortOrder=name&pageSize=2`, { token: scopedToken }))
      .body;
    expect(page).toMatchObject({ totalCount: 3, totalPages: 2, hasNextPage: true, hasPreviousPage: false });
    expect(page.items.map((c: { name: string }) => c.name)).toEqual(["Alpha", "Beta"]);
    expect(
      (await request("GET", `${CAMPAIGNS}?filter=isEnabled==false`, { token: scopedToken })).body.items.map(
        (c: { name: string }) => c.name,
      ),
    ).toEqual(["Gamma"]);
    expect(
      (
        await request("GET", `${CAMPAIGNS}?filter=startsAt==null&sortOrder=-creationTimeStamp`, {
          token: scopedToken,
        })
      ).body.totalCount,
    ).toBe(3);
    expectProblem(
      await request("GET", `${CAMPAIGNS}?filter=targets==x`, { token: scopedToken }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("GET", `${CAMPAIGNS}?sortOrder=isRunning`, { token: scopedToken }),
      400,
      "license.validation_error",
    );
  });

  it("every route: 401 without a token, 403 without the rating-campaign scope, 404 for another tenant's campaign", async () => {
    const campaign = await created({ name: "Guarded" });
    const routes: [string, string, unknown?][] = [
      ["GET", CAMPAIGNS],
      ["POST", CAMPAIGNS, { name: "g" }],
      ["GET", `${CAMPAIGNS}/${campaign.id}`],
      ["PUT", `${CAMPAIGNS}/${campaign.id}`, { name: "g", isEnabled: false }],
      ["DELETE", `${CAMPAIGNS}/${campaign.id}`],
    ];
    const wrongScope = await tenant.token("provision.tag.*");
    const readOnly = await tenant.token("provision.rating-campaign.read");
    const other = await createTestTenant("Campaign intruder");
    const otherToken = await other.token("provision.rating-campaign.*");
    for (const [method, path, body] of routes) {
      expectProblem(await request(method, path, { body }), 401, "auth.unauthenticated");
      expectProblem(await request(method, path, { token: wrongScope, body }), 403, "auth.insufficient_scope");
      if (method !== "GET")
        expectProblem(await request(method, path, { token: readOnly, body }), 403, "auth.insufficient_scope");
      if (path !== CAMPAIGNS)
        expectProblem(await request(method, path, { token: otherToken, body }), 404, "license.not_found");
    }
    expect((await request("GET", `${CAMPAIGNS}/${campaign.id}`, { token })).body).toEqual(campaign);
    expect(
      (await request("GET", CAMPAIGNS, { token: otherToken })).body.items.map((c: { id: string }) => c.id),
    ).not.toContain(campaign.id);
  });
});
