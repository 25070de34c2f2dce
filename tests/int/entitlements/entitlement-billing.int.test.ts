import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { ENTITLEMENTS, OFFERS, makeEntitlement, makeOffer, ok } from "../../helpers/entitlements.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import { applyBillingProviderEvent } from "../../../server/domain/entitlements/billing/billing.ts";
import { registerBillingProvider } from "../../../server/domain/entitlements/billing/billing-providers.ts";

const DAY = 86_400_000;

describe("entitlement billing record", () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let token: string;

  beforeAll(async () => {
    tenant = await createTestTenant("Billing");
    other = await createTestTenant("Billing other");
    token = await tenant.token("provision.entitlement-adm.*");
  });

  const billing = (id: string) => `${ENTITLEMENTS}/${id}/billing`;
  const manual = (id: string, body: Record<string, unknown>) =>
    request("POST", `${billing(id)}/manual-events`, { token, body });
  const fullRecord = {
    provider: "manual",
    mode: "ProviderManaged",
    method: "Subscription",
    interval: "Month",
    amount: 49.5,
    currency: "EUR",
    billingReference: "PO-2026-7",
    notes: "Net 30",
    contactName: "Grace",
    contactEmail: "ap@example.com",
    contactPhone: "+49 30 1234",
    addressLine1: "Main St 1",
    addressLine2: null,
    postalCode: "10115",
    city: "Berlin",
    stateOrProvince: "BE",
    countryCode: "DE",
    details: { "manual.costCentre": "CC-42" },
  };

  it("a new entitlement has a billing record from its offer's billing template, else the defaults", async () => {
    const direct = await makeEntitlement(token, { name: "Direct" });
    expect(ok(await request("GET", billing(direct.id), { token }))).toMatchObject({
      entitlementId: direct.id,
      provider: "manual",
      mode: "NotBillable",
      method: "Unspecified",
      interval: "Unspecified",
      state: "None",
      details: {},
      amount: null,
    });
    const offer = await makeOffer(token, {
      billingTemplate: {
        mode: "OperatorManaged",
        modeReason: "Reseller deal",
        method: "Invoice",
        interval: "Year",
        currency: "USD",
      },
    });
    const fromOffer = await makeEntitlement(token, { offerId: offer.id });
    expect(ok(await request("GET", billing(fromOffer.id), { token }))).toMatchObject({
      mode: "OperatorManaged",
      modeReason: "Reseller deal",
      method: "Invoice",
      interval: "Year",
      currency: "USD",
    });
    expect(ok(await request("GET", `${OFFERS}/${offer.id}`, { token })).billingTemplate).toMatchObject({
      mode: "OperatorManaged",
    });
  });

  it("PUT replaces every operator-editable field (absent ones are reset) and leaves the connector-written ones", async () => {
    const ent = await makeEntitlement(token, { name: "Put" });
    ok(
      await manual(ent.id, {
        state: "Active",
        providerSubscriptionReference: "man-sub-put",
        currentPeriodEnd: "2030-01-01T00:00:00Z",
      }),
    );
    const put = ok(await request("PUT", billing(ent.id), { token, body: fullRecord }));
    expect(put).toMatchObject({
      ...fullRecord,
      state: "Active",
      providerSubscriptionReference: "man-sub-put",
      currentPeriodEnd: "2030-01-01T00:00:00.000Z",
    });
    const reset = ok(await request("PUT", billing(ent.id), { token, body: { provider: "manual" } }));
    expect(reset).toMatchObject({
      mode: "NotBillable",
      amount: null,
      currency: null,
      countryCode: null,
      details: {},
      state: "Active",
      providerSubscriptionReference: "man-sub-put",
    });
  });

  it("billing validation: enums, ISO 4217 currency, ISO 3166-1 alpha-2 country, details keys prefixed by the provider, known providers only", async () => {
    const ent = await makeEntitlement(token, { name: "Validate" });
    const bad = async (body: Record<string, unknown>, code = "license.validation_error") =>
      expectProblem(
        await request("PUT", billing(ent.id), { token, body: { provider: "manual", ...body } }),
        400,
        code,
      );
    await bad({ mode: "Sometimes" });
    await bad({ interval: "Fortnight" });
    await bad({ currency: "EURO" });
    await bad({ currency: "XYZ" });
    await bad({ countryCode: "de" });
    await bad({ countryCode: "ZZ" });
    await bad({ details: { costCentre: "x" } });
    await bad({ details: { "stripe.customer": "x" } });
    await bad({ modeReason: "why", mode: "ProviderManaged" });
    await bad({ provider: "paypal" }, "billing.unknown_provider");
    expect(
      ok(
        await request("PUT", billing(ent.id), {
          token,
          body: { provider: "manual", currency: "JPY", countryCode: "JP", details: { "manual.po": "1" } },
        }),
      ),
    ).toMatchObject({ currency: "JPY" });
  });

  it("a state the service does not know reads as Unknown", async () => {
    const ent = await makeEntitlement(token, { name: "Unknown" });
    expect(ok(await manual(ent.id, { state: "OnHoldForReview" })).state).toBe("Unknown");
    expect(ok(await request("GET", billing(ent.id), { token })).state).toBe("Unknown");
  });

  it("providerSubscriptionReference is unique per tenant and provider", async () => {
    const a = await makeEntitlement(token, { name: "A" });
    const b = await makeEntitlement(token, { name: "B" });
    ok(await manual(a.id, { state: "Active", providerSubscriptionReference: "man-sub-1" }));
    expectProblem(
      await manual(b.id, { state: "Active", providerSubscriptionReference: "man-sub-1" }),
      409,
      "billing.subscription_reference_taken",
    );
    const otherToken = await other.token("provision.entitlement-adm.*");
    const foreign = ok(
      await request("POST", ENTITLEMENTS, { token: otherToken, body: { name: "Other tenant" } }),
      201,
    );
    expect(
      (
        await request("POST", `${billing(foreign.id)}/manual-events`, {
          token: otherToken,
          body: { state: "Active", providerSubscriptionReference: "man-sub-1" },
        })
      ).status,
    ).toBe(200);
    // Another provider (a connector registered in its own process) may use the same reference.
    expectProblem(
      await request("PUT", billing(b.id), { token, body: { provider: "acme-pay" } }),
      400,
      "billing.unknown_provider",
    );
    registerBillingProvider("acme-pay");
    const ctx = {
      tenantId: tenant.tenantId,
      db: tenantDb(testDb(), tenant.tenantId),
      actor: { kind: "system" as const, id: "connector" },
    };
    await ctx.db.entitlementBilling.updateMany({
      where: { entitlementId: b.id },
      data: { provider: "acme-pay" },
    });
    expect(
      (
        await applyBillingProviderEvent(ctx, b.id, "acme-pay", {
          state: "Active",
          providerSubscriptionReference: "man-sub-1",
        })
      ).providerSubscriptionReference,
    ).toBe("man-sub-1");
    expectProblem(await manual(b.id, { state: "Active" }), 400, "billing.not_manual");
  });

  it("lapse rules: past due for 14 days lapses the entitlement; a payment lifts it", async () => {
    const ent = await makeEntitlement(token, { name: "Lapse" });
    ok(
      await request("PUT", billing(ent.id), { token, body: { provider: "manual", mode: "ProviderManaged" } }),
    );
    const t0 = Date.parse("2030-03-01T00:00:00Z");
    const first = ok(await manual(ent.id, { state: "PastDue", observedAt: new Date(t0).toISOString() }));
    expect(first).toMatchObject({
      state: "PastDue",
      pastDueSince: "2030-03-01T00:00:00.000Z",
      lapsedAt: null,
    });
    expect(ok(await request("GET", `${ENTITLEMENTS}/${ent.id}`, { token })).subscriptionStatus).toBe(
      "PastDue",
    );
    expect(
      ok(await manual(ent.id, { state: "PastDue", observedAt: new Date(t0 + 13 * DAY).toISOString() })),
    ).toMatchObject({ pastDueSince: "2030-03-01T00:00:00.000Z", lapsedAt: null });
    const lapsed = ok(
      await manual(ent.id, { state: "PastDue", observedAt: new Date(t0 + 14 * DAY).toISOString() }),
    );
    expect(lapsed).toMatchObject({ lapsedAt: "2030-03-15T00:00:00.000Z", lapsedPendingSince: null });
    expect(ok(await request("GET", `${ENTITLEMENTS}/${ent.id}`, { token })).subscriptionStatus).toBe(
      "Lapsed",
    );
    const paid = ok(
      await manual(ent.id, { state: "Paid", observedAt: new Date(t0 + 20 * DAY).toISOString() }),
    );
    expect(paid).toMatchObject({ pastDueSince: null, lapsedAt: null, lapsedPendingSince: null });
    expect(ok(await request("GET", `${ENTITLEMENTS}/${ent.id}`, { token })).subscriptionStatus).toBe(
      "Active",
    );
  });

  it("lapse rules: under OperatorManaged the lapse is pending; leaving OperatorManaged applies it, re-entering lifts it; Canceled lapses after the period end", async () => {
    const ent = await makeEntitlement(token, { name: "Pending lapse" });
    ok(
      await request("PUT", billing(ent.id), {
        token,
        body: { provider: "manual", mode: "OperatorManaged", modeReason: "Custom plan for a pilot" },
      }),
    );
    ok(
      await manual(ent.id, {
        state: "Canceled",
        currentPeriodEnd: "2030-05-01T00:00:00Z",
        observedAt: "2030-04-20T00:00:00Z",
      }),
    );
    expect(ok(await request("GET", billing(ent.id), { token }))).toMatchObject({
      lapsedAt: null,
      lapsedPendingSince: null,
    });
    const pending = ok(await manual(ent.id, { state: "Canceled", observedAt: "2030-05-02T00:00:00Z" }));
    expect(pending).toMatchObject({ lapsedAt: null, lapsedPendingSince: "2030-05-02T00:00:00.000Z" });
    expect(ok(await request("GET", `${ENTITLEMENTS}/${ent.id}`, { token })).subscriptionStatus).toBe(
      "Canceled",
    );
    const applied = ok(
      await request("PUT", billing(ent.id), { token, body: { provider: "manual", mode: "ProviderManaged" } }),
    );
    expect(applied).toMatchObject({ lapsedPendingSince: null, lapsedAt: expect.any(String) });
    expect(ok(await request("GET", `${ENTITLEMENTS}/${ent.id}`, { token })).subscriptionStatus).toBe(
      "Lapsed",
    );
    const lifted = ok(
      await request("PUT", billing(ent.id), { token, body: { provider: "manual", mode: "OperatorManaged" } }),
    );
    expect(lifted).toMatchObject({ lapsedAt: null, lapsedPendingSince: applied.lapsedAt });
    expect(ok(await request("GET", `${ENTITLEMENTS}/${ent.id}`, { token })).subscriptionStatus).toBe(
      "Canceled",
    );
  });

  it("every route answers 401 without a token, 403 without the scope and 404 for another tenant's ids", async () => {
    const ent = await makeEntitlement(token, { name: "Matrix" });
    const wrong = await tenant.token("provision.product.*");
    const foreign = await other.token("provision.entitlement-adm.*");
    const routes: [string, string, unknown?][] = [
      ["GET", billing(ent.id)],
      ["PUT", billing(ent.id), { provider: "manual" }],
      ["POST", `${billing(ent.id)}/manual-events`, { state: "Active" }],
    ];
    for (const [method, path, body] of routes) {
      expectProblem(await request(method, path, { body }), 401, "auth.unauthenticated");
      expectProblem(await request(method, path, { token: wrong, body }), 403, "auth.insufficient_scope");
      expectProblem(await request(method, path, { token: foreign, body }), 404, "license.not_found");
    }
  });
});
