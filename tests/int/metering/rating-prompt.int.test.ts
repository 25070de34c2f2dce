import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { consume, meteredLicense, ok200, USAGE, type Session } from "../../helpers/metering.ts";

const CAMPAIGNS = "/api/v1/provision/admin/rating-campaigns";

describe("rating prompt", () => {
  let tenant: TestTenant;
  let admin: string;

  beforeAll(async () => {
    tenant = await createTestTenant("Rating prompt");
    admin = await tenant.token("provision.rating-campaign.*");
  });

  const prompt = (s: Session) =>
    request("GET", `${USAGE}/sessions/${s.sessionId}/rating-prompt`, { token: s.token });
  const answer = (s: Session, body: Record<string, unknown>) =>
    request("POST", `${USAGE}/sessions/${s.sessionId}/rating-prompt/answers`, { token: s.token, body });
  const campaign = async (body: Record<string, unknown>) => {
    const res = await request("POST", CAMPAIGNS, {
      token: admin,
      body: { name: `Campaign ${randomUUID().slice(0, 6)}`, isEnabled: true, ...body },
    });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body;
  };
  /** A license entitled to three metered features (render, export, share), made from `offerId`. */
  const license = (offerId?: string) =>
    meteredLicense(tenant, {
      metrics: [{ metricName: "render" }, { metricName: "export" }, { metricName: "share" }],
      features: [
        { metricName: "render", value: null, name: "Rendering" },
        { metricName: "export", value: null, name: "Export" },
        { metricName: "share", value: null, name: "Sharing" },
      ],
      entitlement: offerId ? { sourceOfferId: offerId, originOfferId: offerId } : {},
    });

  it("the next target of a running campaign: priority first, then the most recently used feature; a generic prompt when the question is empty; answered targets are not asked again", async () => {
    const l = await license();
    const s = await l.session();
    await campaign({
      targets: [
        { featureCatalogId: l.features.share.featureCatalogId, question: null, priority: null },
        {
          featureCatalogId: l.features.export.featureCatalogId,
          question: "Is exporting fast enough?",
          priority: null,
        },
        {
          featureCatalogId: l.features.render.featureCatalogId,
          question: "How good are renders?",
          priority: 1,
        },
      ],
    });
    ok200(await consume(s, "share", 1));
    const first = ok200(await prompt(s));
    expect(first).toMatchObject({
      featureCode: l.features.render.featureCode,
      featureName: "Rendering",
      question: "How good are renders?",
      isGenericQuestion: false,
      priority: 1,
      ratingScale: { min: 1, max: 5 },
    });
    expect(
      ok200(
        await answer(s, {
          campaignId: first.campaignId,
          featureCatalogId: first.featureCatalogId,
          rating: 4,
        }),
      ),
    ).toMatchObject({
      rating: 4,
      entitlementId: l.entitlement.id,
    });
    // No priority left: the feature used most recently is asked next, with the generic question.
    const second = ok200(await prompt(s));
    expect(second).toMatchObject({
      featureName: "Sharing",
      question: "How useful is Sharing to you?",
      isGenericQuestion: true,
    });
    ok200(
      await answer(s, {
        campaignId: second.campaignId,
        featureCatalogId: second.featureCatalogId,
        rating: null,
      }),
    );
    const third = ok200(await prompt(s));
    expect(third).toMatchObject({ featureName: "Export" });
    ok200(
      await answer(s, {
        campaignId: third.campaignId,
        featureCatalogId: third.featureCatalogId,
        rating: 2,
        comment: "slow",
      }),
    );
    expect((await prompt(s)).status).toBe(204);
    const stored = await testDb().featureRating.findMany({
      where: { tenantId: tenant.tenantId, entitlementId: l.entitlement.id },
    });
    expect(stored.map((r) => r.rating).sort()).toEqual([2, 4, null].sort());
  });

  it("a campaign that names offers asks only licenses made from one of them; one not running, or a feature the license lacks, asks nothing (204)", async () => {
    const offerId = randomUUID();
    const mine = await license(offerId);
    const others = await license(randomUUID());
    await campaign({
      offers: [{ offerId }],
      targets: [{ featureCatalogId: mine.features.render.featureCatalogId }],
    });
    await campaign({
      isEnabled: true,
      startsAt: new Date(Date.now() + 86_400_000).toISOString(),
      targets: [{ featureCatalogId: others.features.render.featureCatalogId }],
    });
    const s = await mine.session();
    expect(ok200(await prompt(s))).toMatchObject({ featureCode: mine.features.render.featureCode });
    const o = await others.session();
    expect((await prompt(o)).status).toBe(204);
    expectProblem(
      await answer(o, {
        campaignId: randomUUID(),
        featureCatalogId: others.features.render.featureCatalogId,
        rating: 3,
      }),
      400,
      "usage.rating_not_applicable",
    );
  });
});
