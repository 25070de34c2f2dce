import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { BALANCES, ASSETS } from "../../helpers/catalog-products.ts";
import {
  ENTITLEMENTS,
  OFFERS,
  entitlementCatalog,
  makeEntitlement,
  makeOffer,
  ok,
} from "../../helpers/entitlements.ts";

describe("offers and entitlements", () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let token: string;
  let cat: Awaited<ReturnType<typeof entitlementCatalog>>;

  beforeAll(async () => {
    tenant = await createTestTenant("Entitlements");
    other = await createTestTenant("Entitlements other");
    cat = await entitlementCatalog(tenant);
    token = cat.token;
  });

  const balanceOf = async (ownerId: string) => {
    const assets = ok(
      await request("GET", `${ASSETS}?filter=metricName==ai-credits&pageSize=100`, { token }),
    );
    return assets.items.find(
      (a: { entitlementId: string | null; offerId: string | null }) =>
        a.entitlementId === ownerId || a.offerId === ownerId,
    );
  };

  it("an offer is created Draft with every docs/api.md field, its products' features snapshotted and its assets copied", async () => {
    const offer = await makeOffer(
      token,
      {
        description: "Studio for teams",
        licenseTermsUrl: "https://example.com/terms",
        customerContactName: "Sales",
        customerContactEmail: "sales@example.com",
        productIds: [cat.product.id],
        planSetId: cat.planSet.id,
        planName: "Basic",
        isEntitlementTrial: true,
        validityDays: 30,
        allowAnonymousTry: true,
        consumersMayGrantCredits: true,
        issueOnUserRegistration: true,
        claimBasedActivation: {
          leaseTime: "PT2H",
          gracePeriod: "P2D",
          numberOfSeats: 3,
          isFloatingLicense: true,
          componentMatchingStrategy: "Most",
          checkInInterval: "PT15M",
        },
        activationPolicy: { requireProductCode: true, allowedIpCidr: ["203.0.113.0/24"] },
        keyIssuancePolicy: { template: "XXXX-XXXX-XXXX" },
        billingTemplate: {
          provider: "manual",
          mode: "OperatorManaged",
          modeReason: "Enterprise deal",
          method: "Invoice",
          interval: "Year",
          currency: "EUR",
          countryCode: "DE",
        },
        features: [{ featureCode: cat.sso.featureCode, value: "true" }],
      },
      false,
    );
    expect(offer).toMatchObject({
      isOffer: true,
      status: "Draft",
      version: 1,
      isEntitlementTrial: true,
      validityDays: 30,
      allowAnonymousTry: true,
      consumersMayGrantCredits: true,
      products: [{ id: cat.product.id, name: "Studio" }],
      planSetId: cat.planSet.id,
      planName: "Basic",
      claimBasedActivation: {
        leaseTime: "PT2H",
        numberOfSeats: 3,
        isFloatingLicense: true,
        isInactivityBased: false,
        componentMatchingStrategy: "Most",
        allowOfflineActivation: false,
      },
      activationPolicy: {
        requireProductCode: true,
        requiredAuthenticationLevel: "Default",
        allowedIpCidr: ["203.0.113.0/24"],
      },
      keyIssuancePolicy: { template: "XXXX-XXXX-XXXX", alphabet: "CrockfordBase32" },
      billingTemplate: { mode: "OperatorManaged", currency: "EUR" },
    });
    const sso = offer.features.find((f: { featureCode: string }) => f.featureCode === cat.sso.featureCode);
    expect(sso).toMatchObject({
      value: "true",
      productId: cat.product.id,
      canModifyValueOnEntitlement: false,
    });
    const copy = await balanceOf(offer.id);
    expect(copy).toMatchObject({ balanceUsage: { totalCredits: 1000, initialCreditAmount: 1000 } });
    expectProblem(
      await request("DELETE", `${BALANCES}/${copy.balanceUsage.id}`, { token }),
      400,
      "asset.balance_in_use",
    );
    expect(ok(await request("GET", `${OFFERS}/${offer.id}`, { token }))).toEqual(offer);
  });

  it("offer policies are validated: inactivity-based needs an inactivityTimeout; keyIssuancePolicy uses the activation-code schema", async () => {
    expectProblem(
      await request("POST", OFFERS, {
        token,
        body: { name: "x", claimBasedActivation: { isInactivityBased: true } },
      }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("POST", OFFERS, { token, body: { name: "x", keyIssuancePolicy: { template: "XX" } } }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("POST", OFFERS, { token, body: { name: "x", planSetId: cat.planSet.id } }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("POST", OFFERS, {
        token,
        body: { name: "x", planSetId: cat.planSet.id, planName: "Nope" },
      }),
      400,
      "plan.not_found",
    );
    const inactivity = await makeOffer(
      token,
      {
        name: "Floating",
        claimBasedActivation: {
          isInactivityBased: true,
          inactivityTimeout: "PT30M",
          isFloatingLicense: true,
        },
      },
      false,
    );
    expect(inactivity.claimBasedActivation).toMatchObject({
      isInactivityBased: true,
      inactivityTimeout: "PT30M",
    });
  });

  it("Offer Draft → publish → Published; entitlements are made only from Published offers", async () => {
    const draft = await makeOffer(token, { productIds: [cat.product.id] }, false);
    expectProblem(
      await request("POST", ENTITLEMENTS, { token, body: { offerId: draft.id } }),
      400,
      "offer.not_published",
    );
    const published = ok(await request("POST", `${OFFERS}/${draft.id}/publish`, { token }));
    expect(published).toMatchObject({ status: "Published", publishedAt: expect.any(String) });
    expect(
      (
        await testDb().monitoredAsset.findFirstOrThrow({
          where: { tenantId: tenant.tenantId, ownerId: draft.id },
        })
      ).ownerStatus,
    ).toBe("Published");
    const ent = await makeEntitlement(token, { offerId: draft.id });
    expect(ent).toMatchObject({
      sourceOfferId: draft.id,
      originOfferId: draft.id,
      status: "Published",
      name: "Studio offer",
    });
  });

  it("an entitlement made from an offer is a snapshot: later offer edits do not change it", async () => {
    const offer = await makeOffer(token, {
      productIds: [cat.product.id],
      planSetId: cat.planSet.id,
      planName: "Basic",
      validityDays: 10,
      features: [{ featureCode: cat.seats.featureCode, value: "3" }],
    });
    const ent = await makeEntitlement(token, { offerId: offer.id, reference: "PO-1" });
    const edited = ok(
      await request("PUT", `${OFFERS}/${offer.id}`, {
        token,
        body: {
          name: "Renamed",
          productIds: [cat.product.id],
          features: [{ featureCode: cat.seats.featureCode, value: "9" }],
        },
      }),
    );
    expect(edited).toMatchObject({ name: "Renamed", version: 2, status: "Published" });
    const again = ok(await request("GET", `${ENTITLEMENTS}/${ent.id}`, { token }));
    expect(again.name).toBe("Studio offer");
    expect(
      again.features.find((f: { featureCode: string }) => f.featureCode === cat.seats.featureCode).value,
    ).toBe("3");
    expect(again.planName).toBe("Basic");
    expect(
      new Date(again.expirationDateTime).getTime() - new Date(again.createdAt).getTime(),
    ).toBeGreaterThan(9.9 * 86_400_000);
    expect(again.planHistory).toEqual([
      {
        changedAt: expect.any(String),
        previousPlanSetId: null,
        previousPlanName: null,
        newPlanSetId: cat.planSet.id,
        newPlanName: "Basic",
        source: "Issued",
      },
    ]);
  });

  it("a misspelt field is refused (400) by the open bodies of POST /admin/entitlements and PATCH /admin/offers, and changes nothing", async () => {
    const refused = await request("POST", ENTITLEMENTS, {
      token,
      body: { name: "Typo", productIds: [cat.product.id], expirationDateTme: "2031-01-01T00:00:00Z" },
    });
    expectProblem(refused, 400, "license.validation_error");
    expect(refused.body.errors).toEqual([expect.objectContaining({ path: "body.expirationDateTme" })]);
    expect(ok(await request("GET", `${ENTITLEMENTS}?filter=name==Typo`, { token })).totalCount).toBe(0);
    const offer = await makeOffer(token, { name: "Typo offer", productIds: [cat.product.id] });
    const patch = await request("PATCH", `${OFFERS}/${offer.id}`, {
      token,
      body: { descripton: "misspelt" },
    });
    expectProblem(patch, 400, "license.validation_error");
    expect(ok(await request("GET", `${OFFERS}/${offer.id}`, { token })).version).toBe(offer.version);
  });

  it("a direct entitlement carries its validity window, trial flag and subscriptionStatus; an inverted window is refused", async () => {
    const ent = await makeEntitlement(token, {
      name: "Direct",
      productIds: [cat.product.id],
      notValidBeforeDateTime: "2030-01-01T00:00:00Z",
      expirationDateTime: "2031-01-01T00:00:00Z",
      isEntitlementTrial: true,
      subscriptionStatus: "Active",
      externalReference: "crm-1",
    });
    expect(ent).toMatchObject({
      sourceOfferId: null,
      originOfferId: null,
      notValidBeforeDateTime: "2030-01-01T00:00:00.000Z",
      expirationDateTime: "2031-01-01T00:00:00.000Z",
      isEntitlementTrial: true,
      subscriptionStatus: "Active",
      transferCount: 0,
      activationsEnabled: true,
      customerId: null,
    });
    expectProblem(
      await request("POST", ENTITLEMENTS, {
        token,
        body: {
          name: "Bad",
          notValidBeforeDateTime: "2031-01-01T00:00:00Z",
          expirationDateTime: "2030-01-01T00:00:00Z",
        },
      }),
      400,
      "entitlement.invalid_validity",
    );
    expectProblem(await request("POST", ENTITLEMENTS, { token, body: {} }), 400, "license.validation_error");
    const patched = ok(
      await request("PATCH", `${ENTITLEMENTS}/${ent.id}`, {
        token,
        body: { clearExpirationDate: true, subscriptionStatus: "Canceled" },
      }),
    );
    expect(patched).toMatchObject({
      expirationDateTime: null,
      subscriptionStatus: "Canceled",
      notValidBeforeDateTime: "2030-01-01T00:00:00.000Z",
    });
  });

  it("monitored assets are copied onto the entitlement with initialCreditAmount; a copy on a Published entitlement cannot be deleted, an archived one can", async () => {
    const ent = await makeEntitlement(token, { name: "Assets", productIds: [cat.product.id] });
    const copy = await balanceOf(ent.id);
    expect(copy).toMatchObject({
      productId: cat.product.id,
      metricName: "ai-credits",
      balanceUsage: { totalCredits: 1000, creditsUsed: 0, initialCreditAmount: 1000 },
    });
    expectProblem(
      await request("DELETE", `${BALANCES}/${copy.balanceUsage.id}`, { token }),
      400,
      "asset.balance_in_use",
    );
    expect((await request("DELETE", `${ENTITLEMENTS}/${ent.id}`, { token })).status).toBe(204);
    expect(ok(await request("GET", `${ENTITLEMENTS}/${ent.id}`, { token }))).toMatchObject({
      status: "Archived",
      activationsEnabled: false,
    });
    expect((await request("DELETE", `${BALANCES}/${copy.balanceUsage.id}`, { token })).status).toBe(204);
    expectProblem(
      await request("PATCH", `${ENTITLEMENTS}/${ent.id}`, { token, body: { name: "x" } }),
      400,
      "entitlement.archived",
    );
  });

  it("enable-activations / disable-activations toggle activationsEnabled", async () => {
    const ent = await makeEntitlement(token, { name: "Toggle" });
    expect(
      ok(await request("POST", `${ENTITLEMENTS}/${ent.id}/disable-activations`, { token }))
        .activationsEnabled,
    ).toBe(false);
    expect(
      ok(await request("POST", `${ENTITLEMENTS}/${ent.id}/disable-activations`, { token }))
        .activationsEnabled,
    ).toBe(false);
    expect(
      ok(await request("POST", `${ENTITLEMENTS}/${ent.id}/enable-activations`, { token })).activationsEnabled,
    ).toBe(true);
  });

  it("per-entitlement feature overrides are accepted only where canModifyValueOnEntitlement", async () => {
    const ent = await makeEntitlement(token, { name: "Overrides", productIds: [cat.product.id] });
    const patched = ok(
      await request("PATCH", `${ENTITLEMENTS}/${ent.id}`, {
        token,
        body: { featureOverrides: { [cat.seats.featureCode]: "42" } },
      }),
    );
    expect(patched.featureOverrides).toEqual({ [cat.seats.featureCode]: "42" });
    expectProblem(
      await request("PATCH", `${ENTITLEMENTS}/${ent.id}`, {
        token,
        body: { featureOverrides: { [cat.sso.featureCode]: "true" } },
      }),
      400,
      "entitlement.feature_not_modifiable",
    );
    expectProblem(
      await request("PATCH", `${ENTITLEMENTS}/${ent.id}`, {
        token,
        body: { featureOverrides: { [cat.seats.featureCode]: "many" } },
      }),
      400,
      "license.validation_error",
    );
    const removed = ok(
      await request("PATCH", `${ENTITLEMENTS}/${ent.id}`, {
        token,
        body: { featureOverrides: { [cat.seats.featureCode]: null } },
      }),
    );
    expect(removed.featureOverrides).toEqual({});
  });

  it("lists filter by status, offer and expiring soon, refuse non-whitelisted fields and page", async () => {
    const offer = await makeOffer(token, { name: "Listing" });
    const soon = await makeEntitlement(token, {
      offerId: offer.id,
      expirationDateTime: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    });
    await makeEntitlement(token, {
      offerId: offer.id,
      expirationDateTime: new Date(Date.now() + 90 * 86_400_000).toISOString(),
    });
    const byOffer = ok(
      await request("GET", `${ENTITLEMENTS}?filter=sourceOfferId==${offer.id}&pageSize=1`, { token }),
    );
    expect(byOffer).toMatchObject({ totalCount: 2, totalPages: 2, hasNextPage: true, pageSize: 1 });
    const expiring = ok(
      await request("GET", `${ENTITLEMENTS}?filter=sourceOfferId==${offer.id}&expiringWithinDays=7`, {
        token,
      }),
    );
    expect(expiring.items.map((e: { id: string }) => e.id)).toEqual([soon.id]);
    expect(
      ok(
        await request("GET", `${ENTITLEMENTS}?filter=status==Archived,sourceOfferId==${offer.id}`, { token }),
      ).totalCount,
    ).toBe(0);
    expectProblem(
      await request("GET", `${ENTITLEMENTS}?filter=features==x`, { token }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("GET", `${OFFERS}?sortOrder=billingTemplate`, { token }),
      400,
      "license.validation_error",
    );
    expect(
      ok(await request("GET", `${OFFERS}?filter=status==Published&pageSize=200`, { token })).pageSize,
    ).toBe(100);
  });

  it("PATCH merges into an offer (the merged offer is validated as a whole); offers carry tags of their own vocabulary", async () => {
    const offer = await makeOffer(
      token,
      {
        name: "Patch me",
        productIds: [cat.product.id],
        tags: ["Partner channel"],
        features: [{ featureCode: cat.seats.featureCode, value: "7" }],
      },
      false,
    );
    expect(offer.tags).toEqual(["Partner channel"]);
    const patched = ok(
      await request("PATCH", `${OFFERS}/${offer.id}`, {
        token,
        body: { description: "Patched", claimBasedActivation: { numberOfSeats: 4 } },
      }),
    );
    expect(patched).toMatchObject({
      name: "Patch me",
      description: "Patched",
      version: 1,
      tags: ["Partner channel"],
      claimBasedActivation: { numberOfSeats: 4 },
    });
    expect(
      patched.features.find((f: { featureCode: string }) => f.featureCode === cat.seats.featureCode).value,
    ).toBe("7");
    expectProblem(
      await request("PATCH", `${OFFERS}/${offer.id}`, { token, body: { planSetId: cat.planSet.id } }),
      400,
      "license.validation_error",
    );
    expect(ok(await request("PATCH", `${OFFERS}/${offer.id}`, { token, body: { tags: [] } })).tags).toEqual(
      [],
    );
    expectProblem(
      await request("PATCH", `${OFFERS}/${crypto.randomUUID()}`, { token, body: { name: "x" } }),
      404,
      "license.not_found",
    );
  });

  it("a Draft offer is deleted; a Published one is archived and makes no more entitlements", async () => {
    const draft = await makeOffer(token, {}, false);
    expect((await request("DELETE", `${OFFERS}/${draft.id}`, { token })).status).toBe(204);
    expectProblem(await request("GET", `${OFFERS}/${draft.id}`, { token }), 404, "license.not_found");
    const published = await makeOffer(token, {});
    expect((await request("DELETE", `${OFFERS}/${published.id}`, { token })).status).toBe(204);
    expect(ok(await request("GET", `${OFFERS}/${published.id}`, { token })).status).toBe("Archived");
    expectProblem(
      await request("POST", ENTITLEMENTS, { token, body: { offerId: published.id } }),
      400,
      "offer.not_published",
    );
    expectProblem(
      await request("PUT", `${OFFERS}/${published.id}`, { token, body: { name: "x" } }),
      400,
      "offer.archived",
    );
  });

  it("products count the offers and entitlements that use them; rating campaigns name their offers", async () => {
    const offer = await makeOffer(token, { name: "Referencing offer", productIds: [cat.product.id] });
    await makeEntitlement(token, { offerId: offer.id });
    const product = ok(await request("GET", `/api/v1/provision/admin/products/${cat.product.id}`, { token }));
    expect(product.referencedBy.offers).toBeGreaterThanOrEqual(1);
    expect(product.referencedBy.entitlements).toBeGreaterThanOrEqual(1);
    expectProblem(
      await request("DELETE", `/api/v1/provision/admin/products/${cat.product.id}`, { token }),
      400,
      "product.in_use",
    );
    const campaign = ok(
      await request("POST", "/api/v1/provision/admin/rating-campaigns", {
        token,
        body: { name: "Offer campaign", offers: [{ offerId: offer.id }] },
      }),
    );
    expect(campaign.offers).toEqual([{ offerId: offer.id, name: "Referencing offer", version: "1" }]);
  });

  it("every route answers 401 without a token, 403 without the scope and 404 for another tenant's ids", async () => {
    const offer = await makeOffer(token, {});
    const ent = await makeEntitlement(token, { offerId: offer.id });
    const wrong = await tenant.token("provision.product.*");
    const foreign = await other.token("provision.entitlement-adm.*");
    const routes: [string, string, unknown?][] = [
      ["GET", OFFERS],
      ["POST", OFFERS, { name: "x" }],
      ["GET", `${OFFERS}/${offer.id}`],
      ["PUT", `${OFFERS}/${offer.id}`, { name: "x" }],
      ["PATCH", `${OFFERS}/${offer.id}`, { name: "x" }],
      ["DELETE", `${OFFERS}/${offer.id}`],
      ["POST", `${OFFERS}/${offer.id}/publish`],
      ["GET", ENTITLEMENTS],
      ["POST", ENTITLEMENTS, { name: "x" }],
      ["GET", `${ENTITLEMENTS}/${ent.id}`],
      ["PATCH", `${ENTITLEMENTS}/${ent.id}`, { name: "x" }],
      ["DELETE", `${ENTITLEMENTS}/${ent.id}`],
      ["POST", `${ENTITLEMENTS}/${ent.id}/enable-activations`],
      ["POST", `${ENTITLEMENTS}/${ent.id}/disable-activations`],
    ];
    for (const [method, path, body] of routes) {
      expectProblem(await request(method, path, { body }), 401, "auth.unauthenticated");
      expectProblem(await request(method, path, { token: wrong, body }), 403, "auth.insufficient_scope");
      if (path.includes(offer.id) || path.includes(ent.id))
        expectProblem(await request(method, path, { token: foreign, body }), 404, "license.not_found");
    }
    expectProblem(
      await request("POST", ENTITLEMENTS, { token: foreign, body: { offerId: offer.id } }),
      404,
      "license.not_found",
    );
  });
});
