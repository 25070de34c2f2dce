import { expect } from "vitest";
import { request, type TestTenant } from "./api.ts";
import { makeAsset, makeFeature, makeProduct, uniqueCode, PRODUCTS } from "./catalog-products.ts";

export const OFFERS = "/api/v1/provision/admin/offers";
export const ENTITLEMENTS = "/api/v1/provision/admin/entitlements";
export const SUITES = "/api/v1/provision/admin/suites";
export const PLAN_SETS = "/api/v1/provision/admin/usage-plans/plan-sets";
export const ADD_ONS = "/api/v1/provision/admin/usage-plans/add-ons";
export const CUSTOMER_USERS = "/api/v1/provision/admin/customers/users";
export const CUSTOMER_ORGS = "/api/v1/provision/admin/customers/organizations";

export const ENTITLEMENT_SCOPES = [
  "provision.entitlement-adm.*", "provision.product.*", "provision.feature-catalog.*", "provision.monitored-asset.*",
  "provision.suite.*", "provision.plan-set.*", "provision.add-on.*", "provision.customer.*", "provision.rating-campaign.*",
];

export const ok = <T = any>(res: { status: number; text: string; body: T }, status = 200): T => {
  expect(res.status, res.text).toBe(status);
  return res.body;
};

/**
 * A small catalog over HTTP: one product with a Numeric `seats` feature (modifiable on the
 * entitlement), a Boolean `sso` feature and a credit balance `ai-credits` (1000 initial credits);
 * a suite of it with a Published plan set of plans Basic (seats 5) and Pro (seats 20).
 */
export async function entitlementCatalog(tenant: TestTenant) {
  const token = await tenant.token(ENTITLEMENT_SCOPES);
  const product = await makeProduct(token, { name: "Studio" });
  const seats = await makeFeature(token, { featureType: "Numeric", featureCode: uniqueCode("SEATS").toUpperCase().replace(/-/g, "_"), name: "Seats" });
  const sso = await makeFeature(token, { featureType: "Boolean", featureCode: uniqueCode("SSO").toUpperCase().replace(/-/g, "_"), name: "SSO" });
  ok(await request("POST", `${PRODUCTS}/${product.id}/features`, { token, body: { featureCatalogId: seats.id, value: "1", canModifyValueOnEntitlement: true } }));
  ok(await request("POST", `${PRODUCTS}/${product.id}/features`, { token, body: { featureCatalogId: sso.id, value: "false" } }));
  const credits = await makeAsset(token, product.id, { metricName: "ai-credits", name: "AI credits", balanceUsage: { name: "Credits", initialCreditAmount: 1000 } });
  const suite = ok(await request("POST", SUITES, { token, body: { code: uniqueCode("SUITE"), name: "Studio suite", memberProductIds: [product.id] } }));
  const plan = (name: string, seatCount: string) => ({
    name, pricingMode: "Absolute", monthlyPrice: null,
    lineItems: [{ productId: product.id, featureValues: [{ featureCode: seats.featureCode, value: seatCount }, { featureCode: sso.featureCode, value: name === "Pro" ? "true" : "false" }] }],
  });
  const planSet = ok(await request("POST", PLAN_SETS, { token, body: { suiteId: suite.id, name: "Studio plans", plans: [plan("Basic", "5"), plan("Pro", "20")] } }));
  ok(await request("PUT", `${PLAN_SETS}/${planSet.id}/status`, { token, body: { status: "Published" } }));
  return { token, product, seats, sso, credits, suite, planSet };
}

export async function makeOffer(token: string, body: Record<string, unknown> = {}, publish = true) {
  const offer = ok(await request("POST", OFFERS, { token, body: { name: "Studio offer", ...body } }), 201);
  if (!publish) return offer;
  return ok(await request("POST", `${OFFERS}/${offer.id}/publish`, { token }));
}

export async function makeEntitlement(token: string, body: Record<string, unknown>) {
  return ok(await request("POST", ENTITLEMENTS, { token, body }), 201);
}
