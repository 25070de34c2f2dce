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
  "provision.entitlement-adm.*",
  "provision.product.*",
  "provision.feature-catalog.*",
  "provision.monitored-asset.*",
  "provision.suite.*",
  "provision.plan-set.*",
  "provision.add-on.*",
  "provision.customer.*",
  "provision.rating-campaign.*",
];

export const ok = <T = any>(res: { status: number; text: string; body: T }, status = 200): T => {
  expect(res.status, res.text).toBe(status);
  return res.body;
};

/**
 * A small catalog over HTTP: one product with a Numeric `seats` feature (modifiable on the
 * entitlement), a Boolean `sso` feature and a credit balance `ai-credits` (1000 initial credits);
 * a suite of it with a Published plan set of plans Basic (seats 5) and Pro (seats 20). With
 * `code`, the product, feature and suite codes derive from it, so two tenants can hold twins.
 */
export async function entitlementCatalog(tenant: TestTenant, options: { code?: string } = {}) {
  const codeOf = (prefix: string) => (options.code ? `${options.code}-${prefix}` : uniqueCode(prefix));
  const token = await tenant.token(ENTITLEMENT_SCOPES);
  const product = await makeProduct(token, {
    name: "Studio",
    ...(options.code ? { productCode: options.code } : {}),
  });
  const seats = await makeFeature(token, {
    featureType: "Numeric",
    featureCode: codeOf("SEATS").toUpperCase().replace(/-/g, "_"),
    name: "Seats",
  });
  const sso = await makeFeature(token, {
    featureType: "Boolean",
    featureCode: codeOf("SSO").toUpperCase().replace(/-/g, "_"),
    name: "SSO",
  });
  ok(
    await request("POST", `${PRODUCTS}/${product.id}/features`, {
      token,
      body: { featureCatalogId: seats.id, value: "1", canModifyValueOnEntitlement: true },
    }),
  );
  ok(
    await request("POST", `${PRODUCTS}/${product.id}/features`, {
      token,
      body: { featureCatalogId: sso.id, value: "false" },
    }),
  );
  const credits = await makeAsset(token, product.id, {
    metricName: "ai-credits",
    name: "AI credits",
    balanceUsage: { name: "Credits", initialCreditAmount: 1000 },
  });
  const suite = ok(
    await request("POST", SUITES, {
      token,
      body: { code: codeOf("SUITE"), name: "Studio suite", memberProductIds: [product.id] },
    }),
  );
  const plan = (name: string, seatCount: string) => ({
    name,
    pricingMode: "Absolute",
    monthlyPrice: null,
    lineItems: [
      {
        productId: product.id,
        featureValues: [
          { featureCode: seats.featureCode, value: seatCount },
          { featureCode: sso.featureCode, value: name === "Pro" ? "true" : "false" },
        ],
      },
    ],
  });
  const planSet = ok(
    await request("POST", PLAN_SETS, {
      token,
      body: { suiteId: suite.id, name: "Studio plans", plans: [plan("Basic", "5"), plan("Pro", "20")] },
    }),
  );
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

/** A plan set on `suiteId` with one plan, Basic, pricing `productId` (with `featureValues`); published unless told. */
export async function basicPlanSet(
  token: string,
  suiteId: string,
  productId: string,
  options: { featureValues?: Record<string, unknown>[]; publish?: boolean } = {},
) {
  const planSet = ok(
    await request("POST", PLAN_SETS, {
      token,
      body: {
        suiteId,
        name: "Plans",
        plans: [
          {
            name: "Basic",
            pricingMode: "Absolute",
            monthlyPrice: null,
            lineItems: [{ productId, featureValues: options.featureValues ?? [] }],
          },
        ],
      },
    }),
  );
  if (options.publish !== false)
    ok(await request("PUT", `${PLAN_SETS}/${planSet.id}/status`, { token, body: { status: "Published" } }));
  return planSet;
}
