import { systemContext } from "../../../server/domain/context.ts";
import type { Runner } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestTenant,
  expectProblem,
  request,
  testDb,
  tokenRequest,
  type TestTenant,
} from "../../helpers/api.ts";
import { eventually, startWorker, stopWorker } from "../../helpers/webhooks.ts";
import { captureSubscription, SUBS } from "../../helpers/webhook-fixtures.ts";
import { uniqueCode } from "../../helpers/catalog-products.ts";
import {
  ADD_ONS,
  CUSTOMER_USERS,
  ENTITLEMENTS,
  PLAN_SETS,
  SUITES,
  entitlementCatalog,
  makeEntitlement,
  ok,
} from "../../helpers/entitlements.ts";
import { createUser } from "../../../server/domain/identity/users.ts";
import { consumerOf, made } from "../../helpers/tenant-world.ts";

const REQUESTS = "/api/v1/provision/admin/plan-change-requests";
const consumerRequests = (id: string) =>
  `/api/v1/provision/consumer/me/entitlements/${id}/plan-change-requests`;

type Feature = { featureCode: string; value: string | null; sources: string[] };

describe("effective features, plans, plan changes and add-on grants", () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let token: string;
  let cat: Awaited<ReturnType<typeof entitlementCatalog>>;
  let addOn: { id: string; code: string };
  let runner: Runner;

  beforeAll(async () => {
    tenant = await createTestTenant("Entitlement plans");
    other = await createTestTenant("Entitlement plans other");
    cat = await entitlementCatalog(tenant);
    token = cat.token;
    addOn = ok(
      await request("POST", ADD_ONS, {
        token,
        body: {
          suiteId: cat.suite.id,
          code: uniqueCode("EXTRA"),
          name: "Extra seats",
          featureValues: [
            { featureCode: cat.seats.featureCode, operation: "Add", value: "10", planTargets: ["Pro"] },
            { featureCode: cat.sso.featureCode, operation: "Replace", value: "true", planTargets: [] },
          ],
        },
      }),
    );
    runner = await startWorker();
  });
  afterAll(async () => stopWorker(runner));

  const effective = async (id: string) => {
    const res = ok(await request("GET", `${ENTITLEMENTS}/${id}/effective-features`, { token }));
    return Object.fromEntries((res.features as Feature[]).map((f) => [f.featureCode, f]));
  };
  const planned = (body: Record<string, unknown> = {}) =>
    makeEntitlement(token, {
      name: "Planned",
      productIds: [cat.product.id],
      planSetId: cat.planSet.id,
      planName: "Basic",
      ...body,
    });

  it("effective features = plan line items + active add-on grants (operations, planTargets) + overrides where canModifyValueOnEntitlement", async () => {
    const ent = await planned();
    let f = await effective(ent.id);
    expect(f[cat.seats.featureCode]).toMatchObject({ value: "5", sources: ["Product", "Plan"] });
    expect(f[cat.sso.featureCode].value).toBe("false");

    const grant = ok(
      await request("POST", `${ENTITLEMENTS}/${ent.id}/add-on-grants`, {
        token,
        body: { addOnId: addOn.id, reference: "upsell" },
      }),
    );
    expect(grant).toMatchObject({
      addOnId: addOn.id,
      addOnCode: addOn.code,
      suiteId: cat.suite.id,
      suiteName: "Studio suite",
      isActive: true,
      isRevoked: false,
      reference: "upsell",
    });
    f = await effective(ent.id);
    expect(f[cat.seats.featureCode].value).toBe("5"); // the Add targets Pro only
    expect(f[cat.sso.featureCode]).toMatchObject({
      value: "true",
      sources: ["Product", "Plan", `AddOn:${addOn.code}`],
    });

    ok(
      await request("PUT", `${ENTITLEMENTS}/${ent.id}/plan`, {
        token,
        body: { planSetId: cat.planSet.id, planName: "Pro" },
      }),
    );
    expect((await effective(ent.id))[cat.seats.featureCode].value).toBe("30");

    const future = ok(
      await request("POST", `${ENTITLEMENTS}/${ent.id}/add-on-grants`, {
        token,
        body: { addOnId: addOn.id, startsAtUtc: new Date(Date.now() + 86_400_000).toISOString() },
      }),
    );
    expect(future.isActive).toBe(false);
    expect((await effective(ent.id))[cat.seats.featureCode].value).toBe("30");

    ok(
      await request("PATCH", `${ENTITLEMENTS}/${ent.id}`, {
        token,
        body: { featureOverrides: { [cat.seats.featureCode]: "99" } },
      }),
    );
    expect((await effective(ent.id))[cat.seats.featureCode]).toMatchObject({
      value: "99",
      sources: ["Product", "Plan", `AddOn:${addOn.code}`, "Override"],
    });

    ok(
      await request("PATCH", `${ENTITLEMENTS}/${ent.id}`, {
        token,
        body: { featureOverrides: { [cat.seats.featureCode]: null } },
      }),
    );
    const revoked = ok(
      await request("POST", `${ENTITLEMENTS}/${ent.id}/add-on-grants/${grant.id}/revoke`, { token }),
    );
    expect(revoked).toMatchObject({ isRevoked: true, isActive: false, revokedAt: expect.any(String) });
    expect((await effective(ent.id))[cat.seats.featureCode].value).toBe("20");
    expectProblem(
      await request("POST", `${ENTITLEMENTS}/${ent.id}/add-on-grants/${grant.id}/revoke`, { token }),
      409,
      "add_on_grant.already_revoked",
    );
    const list = ok(await request("GET", `${ENTITLEMENTS}/${ent.id}/add-on-grants`, { token }));
    expect(
      list.items.map((g: { isActive: boolean; isRevoked: boolean }) => [g.isRevoked, g.isActive]),
    ).toEqual([
      [true, false],
      [false, false],
    ]);
    expect(
      ok(await request("GET", `${ENTITLEMENTS}/${ent.id}/add-on-grants?filter=isRevoked==false`, { token }))
        .totalCount,
    ).toBe(1);
  });

  it("PUT plan writes plan-assignment history entries exactly as docs/api.md; the same plan writes none; a Draft revision is refused", async () => {
    const ent = await makeEntitlement(token, { name: "No plan", productIds: [cat.product.id] });
    ok(
      await request("PUT", `${ENTITLEMENTS}/${ent.id}/plan`, {
        token,
        body: { planSetId: cat.planSet.id, planName: "Basic" },
      }),
    );
    ok(
      await request("PUT", `${ENTITLEMENTS}/${ent.id}/plan`, {
        token,
        body: { planSetId: cat.planSet.id, planName: "Basic" },
      }),
    );
    const moved = ok(
      await request("PUT", `${ENTITLEMENTS}/${ent.id}/plan`, {
        token,
        body: { planSetId: cat.planSet.id, planName: "Pro", source: "SupportTicket" },
      }),
    );
    expect(moved).toMatchObject({ planSetId: cat.planSet.id, planName: "Pro" });
    const history = ok(await request("GET", `${ENTITLEMENTS}/${ent.id}/plan-history`, { token }));
    expect(
      history.items.map(({ id: _id, entitlementId: _e, ...entry }: Record<string, unknown>) => entry),
    ).toEqual([
      {
        changedAt: expect.any(String),
        previousPlanSetId: null,
        previousPlanName: null,
        newPlanSetId: cat.planSet.id,
        newPlanName: "Basic",
        source: "ManualAdminAction",
      },
      {
        changedAt: expect.any(String),
        previousPlanSetId: cat.planSet.id,
        previousPlanName: "Basic",
        newPlanSetId: cat.planSet.id,
        newPlanName: "Pro",
        source: "SupportTicket",
      },
    ]);
    expect(moved.planHistory).toHaveLength(2);
    const filtered = ok(
      await request(
        "GET",
        `${ENTITLEMENTS}/${ent.id}/plan-history?filter=source==SupportTicket&sortOrder=-changedAt&pageSize=1`,
        { token },
      ),
    );
    expect(filtered).toMatchObject({ totalCount: 1, items: [{ newPlanName: "Pro" }] });
    expectProblem(
      await request("GET", `${ENTITLEMENTS}/${ent.id}/plan-history?filter=id==x`, { token }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("PUT", `${ENTITLEMENTS}/${ent.id}/plan`, {
        token,
        body: { planSetId: cat.planSet.id, planName: "Gold" },
      }),
      400,
      "plan.not_found",
    );
    const draft = ok(
      await request("POST", PLAN_SETS, {
        token,
        body: {
          suiteId: cat.suite.id,
          name: "Draft plans",
          plans: [
            {
              name: "Basic",
              pricingMode: "Absolute",
              monthlyPrice: null,
              lineItems: [{ productId: cat.product.id, featureValues: [] }],
            },
          ],
        },
      }),
    );
    expectProblem(
      await request("PUT", `${ENTITLEMENTS}/${ent.id}/plan`, {
        token,
        body: { planSetId: draft.id, planName: "Basic" },
      }),
      400,
      "plan.plan_set_not_published",
    );
  });

  it("an add-on grant needs the add-on's suite to match the entitlement's plan; campaignId records an attribution touch", async () => {
    const noPlan = await makeEntitlement(token, { name: "No plan" });
    expectProblem(
      await request("POST", `${ENTITLEMENTS}/${noPlan.id}/add-on-grants`, {
        token,
        body: { addOnId: addOn.id },
      }),
      400,
      "entitlement.no_plan",
    );
    const otherSuite = ok(
      await request("POST", SUITES, {
        token,
        body: { code: uniqueCode("OTHER"), name: "Other suite", memberProductIds: [] },
      }),
    );
    const foreignAddOn = ok(
      await request("POST", ADD_ONS, {
        token,
        body: { suiteId: otherSuite.id, code: uniqueCode("OTHER-ADDON"), name: "Other" },
      }),
    );
    const ent = await planned();
    expectProblem(
      await request("POST", `${ENTITLEMENTS}/${ent.id}/add-on-grants`, {
        token,
        body: { addOnId: foreignAddOn.id },
      }),
      400,
      "add_on_grant.suite_mismatch",
    );
    expectProblem(
      await request("POST", `${ENTITLEMENTS}/${ent.id}/add-on-grants`, {
        token,
        body: { addOnId: crypto.randomUUID() },
      }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", `${ENTITLEMENTS}/${ent.id}/add-on-grants`, {
        token,
        body: {
          addOnId: addOn.id,
          startsAtUtc: "2030-01-02T00:00:00Z",
          expiresAtUtc: "2030-01-01T00:00:00Z",
        },
      }),
      400,
      "license.validation_error",
    );
    const campaign = ok(
      await request("POST", "/api/v1/provision/admin/rating-campaigns", { token, body: { name: "Spring" } }),
    );
    const grant = ok(
      await request("POST", `${ENTITLEMENTS}/${ent.id}/add-on-grants`, {
        token,
        body: { addOnId: addOn.id, campaignId: campaign.id, expiresAtUtc: "2099-01-01T00:00:00Z" },
      }),
    );
    expect(grant).toMatchObject({
      campaignId: campaign.id,
      expiresAt: "2099-01-01T00:00:00.000Z",
      isActive: true,
    });
    const touches = await testDb().attributionTouch.findMany({
      where: { tenantId: tenant.tenantId, campaignId: campaign.id },
    });
    expect(touches).toMatchObject([{ kind: "AddOnGrant", entitlementId: ent.id, addOnGrantId: grant.id }]);
    const addOnRead = ok(await request("GET", `${ADD_ONS}/${addOn.id}`, { token }));
    expect(addOnRead.referencedBy.entitlements).toBeGreaterThanOrEqual(2);
  });

  it("an offer's add-on grants are copied to every entitlement made from it; revoking on the offer leaves those made", async () => {
    const OFFERS = "/api/v1/provision/admin/offers";
    const offer = ok(
      await request("POST", OFFERS, {
        token,
        body: { name: "Bundle", productIds: [cat.product.id], planSetId: cat.planSet.id, planName: "Pro" },
      }),
      201,
    );
    const noPlan = ok(await request("POST", OFFERS, { token, body: { name: "No plan offer" } }), 201);
    expectProblem(
      await request("POST", `${OFFERS}/${noPlan.id}/add-on-grants`, { token, body: { addOnId: addOn.id } }),
      400,
      "entitlement.no_plan",
    );
    const grant = ok(
      await request("POST", `${OFFERS}/${offer.id}/add-on-grants`, {
        token,
        body: { addOnId: addOn.id, reference: "bundle" },
      }),
    );
    ok(await request("POST", `${OFFERS}/${offer.id}/publish`, { token }));
    const ent = await makeEntitlement(token, { offerId: offer.id });
    const copied = ok(await request("GET", `${ENTITLEMENTS}/${ent.id}/add-on-grants`, { token }));
    expect(copied.items).toMatchObject([{ addOnId: addOn.id, reference: "bundle", isActive: true }]);
    expect((await effective(ent.id))[cat.seats.featureCode].value).toBe("30");
    ok(await request("POST", `${OFFERS}/${offer.id}/add-on-grants/${grant.id}/revoke`, { token }));
    expect(
      ok(await request("GET", `${OFFERS}/${offer.id}/add-on-grants`, { token })).items[0].isRevoked,
    ).toBe(true);
    expect(
      ok(await request("GET", `${ENTITLEMENTS}/${ent.id}/add-on-grants`, { token })).items[0].isActive,
    ).toBe(true);
    const later = await makeEntitlement(token, { offerId: offer.id });
    expect(ok(await request("GET", `${ENTITLEMENTS}/${later.id}/add-on-grants`, { token })).totalCount).toBe(
      0,
    );
    expect(
      ok(await request("GET", `${ADD_ONS}/${addOn.id}`, { token })).referencedBy.offers,
    ).toBeGreaterThanOrEqual(1);
  });

  it("a consumer's plan-change request, reviewed by an admin, emits Entitlement.PlanChangeReviewed with approved, requestedPlanCode and routing keys", async () => {
    const hooks = await tenant.token("provision.webhook.*");
    const capture = await captureSubscription(hooks, {
      eventTypePatterns: ["Entitlement.PlanChangeReviewed"],
    });
    const email = `${uniqueCode("consumer")}@example.com`;
    const portalUser = await createUser(systemContext(testDb(), tenant.tenantId, "test"), {
      email,
      password: "correct horse battery",
      kind: "consumer",
    });
    const customer = ok(
      await request("POST", CUSTOMER_USERS, {
        token,
        body: { email, userId: portalUser.id, externalReference: "crm-cust-7" },
      }),
      201,
    );
    const consumer = ok(
      await tokenRequest({ grant_type: "password", username: email, password: "correct horse battery" }),
    ).access_token as string;
    const ent = await planned({ customerId: customer.id, reference: "PO-7", externalReference: "crm-ent-7" });
    const stranger = await planned();

    expectProblem(
      await request("POST", consumerRequests(ent.id), { body: { planName: "Pro" } }),
      401,
      "auth.unauthenticated",
    );
    expectProblem(
      await request("POST", consumerRequests(stranger.id), { token: consumer, body: { planName: "Pro" } }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", consumerRequests(ent.id), { token: consumer, body: { planName: "Gold" } }),
      400,
      "plan.not_found",
    );
    const plansUrl = `/api/v1/provision/consumer/me/entitlements/${ent.id}/plans`;
    expect(ok(await request("GET", plansUrl, { token: consumer }))).toMatchObject({
      planName: "Basic",
      pendingPlanChangeRequest: null,
      plans: [
        { name: "Basic", isCurrent: true, planSetId: cat.planSet.id },
        { name: "Pro", isCurrent: false },
      ],
    });
    expectProblem(
      await request("GET", `/api/v1/provision/consumer/me/entitlements/${stranger.id}/plans`, {
        token: consumer,
      }),
      404,
      "license.not_found",
    );
    expectProblem(await request("GET", plansUrl), 401, "auth.unauthenticated");
    const asked = ok(
      await request("POST", consumerRequests(ent.id), {
        token: consumer,
        body: { planName: "Pro", note: "We grew" },
      }),
      201,
    );
    expect(ok(await request("GET", plansUrl, { token: consumer })).pendingPlanChangeRequest).toMatchObject({
      id: asked.id,
      requestedPlanName: "Pro",
    });
    expect(asked).toMatchObject({
      status: "Pending",
      requestedPlanCode: "Pro",
      currentPlanName: "Basic",
      requestedByUserId: portalUser.id,
    });
    expectProblem(
      await request("POST", consumerRequests(ent.id), { token: consumer, body: { planName: "Pro" } }),
      409,
      "plan_change.pending_exists",
    );

    const pending = ok(
      await request("GET", `${REQUESTS}?filter=status==Pending,entitlementId==${ent.id}`, { token }),
    );
    expect(pending.items.map((r: { id: string }) => r.id)).toEqual([asked.id]);
    const reviewed = ok(
      await request("POST", `${REQUESTS}/${asked.id}/review`, { token, body: { approved: true } }),
    );
    expect(reviewed).toMatchObject({
      status: "Approved",
      currentPlanName: "Pro",
      reviewedAt: expect.any(String),
    });
    expectProblem(
      await request("POST", `${REQUESTS}/${asked.id}/review`, { token, body: { approved: false } }),
      409,
      "plan_change.already_reviewed",
    );
    const history = ok(await request("GET", `${ENTITLEMENTS}/${ent.id}/plan-history`, { token }));
    expect(history.items.at(-1)).toMatchObject({
      previousPlanName: "Basic",
      newPlanName: "Pro",
      source: "ApprovedPlanChangeRequest",
    });

    const second = ok(
      await request("POST", consumerRequests(ent.id), { token: consumer, body: { planName: "Basic" } }),
      201,
    );
    expect(
      ok(await request("POST", `${REQUESTS}/${second.id}/review`, { token, body: { approved: false } }))
        .status,
    ).toBe("Rejected");
    expect(ok(await request("GET", `${ENTITLEMENTS}/${ent.id}`, { token })).planName).toBe("Pro");

    const events = await eventually(async () => {
      const res = ok(
        await request("GET", `${SUBS}/${capture}/captured-events?pageSize=100`, { token: hooks }),
      );
      return res.items.length >= 2
        ? res.items
            .map((i: { envelope: { data: Record<string, unknown>; entityid: string } }) => i.envelope)
            .reverse()
        : undefined;
    });
    const billing = { provider: "manual" };
    expect(events[0].entityid).toBe(ent.id);
    expect(events[0].data).toEqual({
      entitlementId: ent.id,
      planCode: "Pro",
      reference: "PO-7",
      externalReference: "crm-ent-7",
      customerId: customer.id,
      customerExternalReference: "crm-cust-7",
      planSetId: cat.planSet.id,
      billing,
      planChangeRequestId: asked.id,
      approved: true,
      requestedPlanCode: "Pro",
      reviewedAtUtc: expect.any(String),
    });
    expect(events[1].data).toMatchObject({
      approved: false,
      requestedPlanCode: "Basic",
      planCode: "Pro",
      planChangeRequestId: second.id,
    });
  });

  it("every route answers 401 without a token, 403 without the scope and 404 for another tenant's ids", async () => {
    const customer = await consumerOf(tenant, token);
    const ent = await planned({ customerId: customer.customer.id });
    const grant = ok(
      await request("POST", `${ENTITLEMENTS}/${ent.id}/add-on-grants`, {
        token,
        body: { addOnId: addOn.id },
      }),
    );
    const wrong = await tenant.token("provision.product.*");
    const foreign = await other.token("provision.entitlement-adm.*");
    const request0 = made(
      await request("POST", consumerRequests(ent.id), { token: customer.token, body: { planName: "Pro" } }),
    ).id;
    const routes: [string, string, unknown?][] = [
      ["PUT", `${ENTITLEMENTS}/${ent.id}/plan`, { planSetId: cat.planSet.id, planName: "Pro" }],
      ["GET", `${ENTITLEMENTS}/${ent.id}/plan-history`],
      ["GET", `${ENTITLEMENTS}/${ent.id}/effective-features`],
      ["GET", `${ENTITLEMENTS}/${ent.id}/add-on-grants`],
      ["POST", `${ENTITLEMENTS}/${ent.id}/add-on-grants`, { addOnId: addOn.id }],
      ["POST", `${ENTITLEMENTS}/${ent.id}/add-on-grants/${grant.id}/revoke`],
      ["POST", `${REQUESTS}/${request0}/review`, { approved: false }],
      ["GET", REQUESTS],
    ];
    for (const [method, path, body] of routes) {
      expectProblem(await request(method, path, { body }), 401, "auth.unauthenticated");
      expectProblem(await request(method, path, { token: wrong, body }), 403, "auth.insufficient_scope");
      if (path !== REQUESTS)
        expectProblem(await request(method, path, { token: foreign, body }), 404, "license.not_found");
    }
    expect(ok(await request("GET", REQUESTS, { token: foreign })).totalCount).toBe(0);
    expectProblem(
      await request("GET", `${REQUESTS}?filter=note==x`, { token }),
      400,
      "license.validation_error",
    );
  });
});
