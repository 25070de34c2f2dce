import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { scopeResources } from "../../server/domain/identity/scopes.ts";
import { createUser } from "../../server/domain/identity/users.ts";
import { systemContext } from "../../server/domain/context.ts";
import { request, testDb, tokenRequest, type TestTenant } from "./api.ts";
import {
  ADD_ONS,
  CUSTOMER_ORGS,
  CUSTOMER_USERS,
  ENTITLEMENTS,
  OFFERS,
  entitlementCatalog,
  makeEntitlement,
  makeOffer,
  ok,
} from "./entitlements.ts";
import { PRODUCTS, uniqueCode } from "./catalog-products.ts";
import { activated } from "./runtime.ts";

export const PROVISION = "/api/v1/provision/";

/** Every `provision.<resource>.*` scope: what a tenant's back office may do. */
export const ALL_PROVISION_SCOPES = scopeResources.map((r) => `provision.${r}.*`);

/** The body of a creating request, answered 200 or 201 as the route's contract says. */
export function made<T = any>(res: { status: number; text: string; body: T }): T {
  expect([200, 201], res.text).toContain(res.status);
  return res.body;
}

/** A portal user with a consumer token and the CustomerUser entitlements are assigned to (both through the domain/API). */
export async function consumerOf(
  tenant: TestTenant,
  adminToken: string,
  email = `${uniqueCode("user")}@example.com`,
) {
  const password = "correct horse battery staple";
  const user = await createUser(systemContext(testDb(), tenant.tenantId, "test"), {
    email,
    password,
    kind: "consumer",
  });
  const customer = made(
    await request("POST", CUSTOMER_USERS, { token: adminToken, body: { email, userId: user.id } }),
  );
  const token = ok(
    await tokenRequest({ grant_type: "password", username: email, password, tenant: tenant.tenantSlug }),
  ).access_token as string;
  return { user, customer, token };
}

/** A published entitlement with an activation code, activated once by `fingerprint`: its session. */
export async function activatedLicense(
  adminToken: string,
  body: Record<string, unknown> = {},
  fingerprint: string = randomUUID(),
) {
  const entitlement = await makeEntitlement(adminToken, {
    name: "Licensed",
    claimBasedActivation: { numberOfSeats: 5 },
    ...body,
  });
  const issued = made(
    await request("POST", `${PROVISION}operational/entitlements/${entitlement.id}/activation-codes`, {
      token: adminToken,
      body: {},
    }),
  );
  const session = await activated({ activationCode: issued.codes[0].code, fingerprint });
  return { entitlement, code: issued.codes[0], session };
}

/**
 * One of every kind of record a tenant's /provision routes address, made through the API (and the
 * identity domain for the portal user): tags, the entitlement catalog (product, features, credit
 * balance, suite, plan set), a rating campaign, an add-on, an offer and an entitlement with
 * add-on grants, a customer organization and user, a plan-change request, an activation code and
 * an activated session on a device. With `code`, codes, names, the customer's email and the
 * device's fingerprint derive from it, so two tenants can hold twins under the same keys.
 */
export async function seedTenantWorld(tenant: TestTenant, options: { code?: string } = {}) {
  const code = options.code ?? uniqueCode("W");
  const cat = await entitlementCatalog(tenant, { code });
  const token = await tenant.token(ALL_PROVISION_SCOPES);
  const tag = made(
    await request("POST", `${PROVISION}admin/tags`, { token, body: { name: `${code}-1`, scope: "Product" } }),
  );
  const otherTag = made(
    await request("POST", `${PROVISION}admin/tags`, { token, body: { name: `${code}-2`, scope: "Product" } }),
  );
  const campaign = made(
    await request("POST", `${PROVISION}admin/rating-campaigns`, { token, body: { name: `${code} rating` } }),
  );
  const addOn = made(
    await request("POST", ADD_ONS, {
      token,
      body: {
        suiteId: cat.suite.id,
        code: `${code}-EXTRA`,
        name: "Extra",
        featureValues: [
          { featureCode: cat.seats.featureCode, operation: "Add", value: "1", planTargets: [] },
        ],
      },
    }),
  );
  const offer = await makeOffer(token, {
    name: `${code} offer`,
    planSetId: cat.planSet.id,
    planName: "Basic",
  });
  const offerGrant = made(
    await request("POST", `${OFFERS}/${offer.id}/add-on-grants`, { token, body: { addOnId: addOn.id } }),
  );
  const organization = made(await request("POST", CUSTOMER_ORGS, { token, body: { name: `${code} org` } }));
  const me = await consumerOf(tenant, token, `${code.toLowerCase()}@example.com`);
  const fingerprint = `${code}-device`;
  const {
    entitlement,
    code: activationCode,
    session,
  } = await activatedLicense(
    token,
    {
      name: `${code} license`,
      productIds: [cat.product.id],
      planSetId: cat.planSet.id,
      planName: "Basic",
      customerId: me.customer.id,
    },
    fingerprint,
  );
  const entitlementGrant = made(
    await request("POST", `${ENTITLEMENTS}/${entitlement.id}/add-on-grants`, {
      token,
      body: { addOnId: addOn.id },
    }),
  );
  const planChange = made(
    await request("POST", `${PROVISION}consumer/me/entitlements/${entitlement.id}/plan-change-requests`, {
      token: me.token,
      body: { planName: "Pro" },
    }),
  );
  const devices = ok(await request("GET", `${ENTITLEMENTS}/${entitlement.id}/devices`, { token }));
  const product = ok(await request("GET", `${PRODUCTS}/${cat.product.id}`, { token }));
  const ids: Record<string, string> = {
    tag: tag.id,
    otherTag: otherTag.id,
    product: cat.product.id,
    productFeature: product.features[0].id,
    feature: cat.seats.id,
    asset: cat.credits.id,
    balance: cat.credits.balanceUsage.id,
    suite: cat.suite.id,
    planSet: cat.planSet.id,
    addOn: addOn.id,
    campaign: campaign.id,
    offer: offer.id,
    offerGrant: offerGrant.id,
    entitlement: entitlement.id,
    entitlementGrant: entitlementGrant.id,
    organization: organization.id,
    customerUser: me.customer.id,
    planChangeRequest: planChange.id,
    activationCode: activationCode.id,
    device: devices.items[0].id,
    metricName: "ai-credits",
    session: session.sessionId,
  };
  return { code, cat, token, ids, consumer: me, session, fingerprint, activationCode };
}

/** A hash of each tenant-owned table's rows of one tenant (tables the worker changes on its own left out). */
export async function tenantRows(
  tenantId: string,
  skip: ReadonlySet<string> = new Set(["WebhookEnvelope", "WebhookDelivery", "WebhookDeliveryAttempt"]),
): Promise<Record<string, string>> {
  const tables = await testDb().$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND column_name = 'tenantId' ORDER BY table_name`;
  const sql = tables
    .map((t) => t.table_name)
    .filter((t) => !skip.has(t))
    .map(
      (t) =>
        `SELECT '${t}' AS t, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM "${t}" x WHERE x."tenantId" = $1::uuid`,
    )
    .join(" UNION ALL ");
  const rows = await testDb().$queryRawUnsafe<{ t: string; h: string }[]>(sql, tenantId);
  return Object.fromEntries(rows.map((r) => [r.t, r.h]));
}
