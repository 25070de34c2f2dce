import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type ApiResponse } from "../../helpers/api.ts";
import {
  insertEntitlement,
  insertEntitlementBalance,
  signedInConsumer,
} from "../../helpers/licensing-fixtures.ts";
import { makeProduct, PRODUCTS } from "../../helpers/catalog-products.ts";
import { ENTITLEMENTS, OFFERS } from "../../helpers/entitlements.ts";

/**
 * The fuzz table: input that once answered 500 — a bug — and must be refused
 * with a 4xx problem (or OAuth error) that names it. Each row is one request and what it must get.
 * Extend it: add a row whenever a malformed input is found to answer 500.
 *
 * Rows receive the fixture built once in beforeAll (a tenant, tokens, a balance close to the
 * column's limit) and return the request to send.
 */

type Fixture = {
  admin: string;
  consumer: string;
  /** An entitlement whose `credits` balance holds just under numeric(24,6)'s 10^18. */
  fullBalanceEntitlementId: string;
  /** The same, assigned to the consumer (consumersMayGrantCredits). */
  consumerFullBalanceEntitlementId: string;
  productId: string;
  suiteId: string;
};

type Req = {
  method: string;
  path: string;
  token?: string;
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
};

/** `detail`, when given, must match the problem's detail (that the refusal names the right field). */
type Expected =
  { status: number; codeName: string; detail?: RegExp } | { status: number; oauthError: string };

type Row = { name: string; request: (f: Fixture) => Req; expect: Expected };

const TOKEN = "/auth/connect/token";
const TAGS = "/api/v1/provision/admin/tags";
const FEATURE_CATALOG = "/api/v1/provision/admin/feature-catalog";
const OP = "/api/v1/provision/operational/entitlements";
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`, "utf8").toString("base64")}`;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const invalid = { status: 400, codeName: "license.validation_error" } as const;
/** An array nested this deep: JSON.stringify overflows the stack long before the 1 MiB body cap. */
const deeplyNested = (depth: number) => JSON.parse("[".repeat(depth) + "]".repeat(depth)) as unknown;
const deepBody = (depth: number) =>
  `{"scope":"Product","name":"Deep","ignored":${"[".repeat(depth)}${"]".repeat(depth)}}`;

const rows: Row[] = [
  // Token endpoint
  {
    name: "Basic credentials with a bad %-escape in the client id",
    request: () => ({
      method: "POST",
      path: TOKEN,
      headers: { ...FORM, authorization: basic("%zz", "secret") },
      rawBody: form({ grant_type: "client_credentials" }),
    }),
    expect: { status: 400, oauthError: "invalid_request" },
  },
  {
    name: "Basic credentials with a truncated %-escape in the secret",
    request: () => ({
      method: "POST",
      path: TOKEN,
      headers: { ...FORM, authorization: basic("client", "abc%E") },
      rawBody: form({ grant_type: "client_credentials" }),
    }),
    expect: { status: 400, oauthError: "invalid_request" },
  },
  // Sieve
  {
    name: "Sieve integer above int4",
    request: (f) => ({ method: "GET", path: `${TAGS}?filter=revisionNumber==2147483648`, token: f.admin }),
    expect: invalid,
  },
  {
    name: "Sieve integer below int4",
    request: (f) => ({ method: "GET", path: `${TAGS}?filter=revisionNumber>-2147483649`, token: f.admin }),
    expect: invalid,
  },
  {
    name: "Sieve number 1e999 (Infinity)",
    request: (f) => ({ method: "GET", path: `${FEATURE_CATALOG}?filter=valueScore>1e999`, token: f.admin }),
    expect: invalid,
  },
  {
    name: "Sieve number -1e999 (-Infinity)",
    request: (f) => ({ method: "GET", path: `${FEATURE_CATALOG}?filter=valueScore<-1e999`, token: f.admin }),
    expect: invalid,
  },
  // Activation policy and durations, on every route that saves them
  ...(["10.0.0.0/99", "10.0.0.0/33", "::/129", "300.0.0.0/8", "10.0.0.0/", "fe80::zz/64"] as const).map(
    (cidr): Row => ({
      name: `allowedIpCidr ${cidr} on a direct entitlement`,
      request: (f) => ({
        method: "POST",
        path: ENTITLEMENTS,
        token: f.admin,
        body: { name: "Bad CIDR", activationPolicy: { allowedIpCidr: [cidr] } },
      }),
      expect: invalid,
    }),
  ),
  {
    name: "allowedIpCidr 10.0.0.0/99 on an offer",
    request: (f) => ({
      method: "POST",
      path: OFFERS,
      token: f.admin,
      body: { name: "Bad CIDR offer", activationPolicy: { allowedIpCidr: ["10.0.0.0/99"] } },
    }),
    expect: invalid,
  },
  ...(["leaseTime", "gracePeriod"] as const).map((field): Row => ({
    name: `${field} P99999999999D on a direct entitlement`,
    request: (f) => ({
      method: "POST",
      path: ENTITLEMENTS,
      token: f.admin,
      body: { name: "Endless", claimBasedActivation: { [field]: "P99999999999D" } },
    }),
    expect: invalid,
  })),
  {
    name: "leaseTime PT999999999999H on an offer",
    request: (f) => ({
      method: "POST",
      path: OFFERS,
      token: f.admin,
      body: { name: "Endless offer", claimBasedActivation: { leaseTime: "PT999999999999H" } },
    }),
    expect: invalid,
  },
  {
    name: "inactivityTimeout P99999999999D",
    request: (f) => ({
      method: "POST",
      path: ENTITLEMENTS,
      token: f.admin,
      body: {
        name: "Endless",
        claimBasedActivation: { isInactivityBased: true, inactivityTimeout: "P99999999999D" },
      },
    }),
    expect: invalid,
  },
  {
    name: "checkInInterval P99999999999D",
    request: (f) => ({
      method: "POST",
      path: ENTITLEMENTS,
      token: f.admin,
      body: { name: "Endless", claimBasedActivation: { checkInInterval: "P99999999999D" } },
    }),
    expect: invalid,
  },
  // numeric(24,6) credit columns
  {
    name: "initialCreditAmount beyond numeric(24,6)",
    request: (f) => ({
      method: "POST",
      path: `${PRODUCTS}/${f.productId}/monitored-assets`,
      token: f.admin,
      body: { metricName: "huge", name: "Huge", balanceUsage: { name: "Huge", initialCreditAmount: 1e30 } },
    }),
    expect: invalid,
  },
  {
    name: "a deposit that would overflow the balance",
    request: (f) => ({
      method: "POST",
      path: `${OP}/${f.fullBalanceEntitlementId}/balances/credits/deposit`,
      token: f.admin,
      body: { amount: 1e12 },
    }),
    expect: { status: 400, codeName: "balance.limit_exceeded" },
  },
  {
    name: "a consumer credit grant that would overflow the balance",
    request: (f) => ({
      method: "POST",
      path: `/api/v1/provision/consumer/me/entitlements/${f.consumerFullBalanceEntitlementId}/credit-grants`,
      token: f.consumer,
      body: { metricName: "credits", amount: 1e12 },
    }),
    expect: { status: 400, codeName: "balance.limit_exceeded" },
  },
  {
    name: "a plan's monthlyPrice beyond numeric(24,6)",
    request: (f) => ({
      method: "POST",
      path: "/api/v1/provision/admin/usage-plans/plan-sets",
      token: f.admin,
      body: {
        suiteId: f.suiteId,
        name: "Priceless",
        plans: [
          { name: "Gold", pricingMode: "Absolute", monthlyPrice: 1e20, currency: "USD", lineItems: [] },
        ],
      },
    }),
    expect: { ...invalid, detail: /monthlyPrice/ },
  },
  {
    name: "a billing amount beyond numeric(24,6)",
    request: (f) => ({
      method: "PUT",
      path: `${ENTITLEMENTS}/${f.fullBalanceEntitlementId}/billing`,
      token: f.admin,
      body: { mode: "OperatorManaged", amount: -1e20, currency: "USD" },
    }),
    expect: { ...invalid, detail: /amount/ },
  },
  // Bodies
  {
    name: "a deeply nested ignored field under an Idempotency-Key",
    request: (f) => ({
      method: "POST",
      path: TAGS,
      token: f.admin,
      headers: { "content-type": "application/json", "idempotency-key": `deep-${crypto.randomUUID()}` },
      rawBody: deepBody(100_000),
    }),
    expect: invalid,
  },
  {
    name: "a deeply nested ignored field without an Idempotency-Key",
    request: (f) => ({
      method: "POST",
      path: TAGS,
      token: f.admin,
      body: { scope: "Product", name: "Deep too", ignored: deeplyNested(1_000) },
    }),
    expect: invalid,
  },
];

describe("malformed input is refused with a 4xx that names it, never a 500 (fuzz table)", () => {
  let fixture: Fixture;

  beforeAll(async () => {
    const tenant = await createTestTenant("Malformed input");
    const admin = await tenant.token("provision.*");
    const { customer, token: consumer } = await signedInConsumer(tenant);
    const product = await makeProduct(admin, { name: "Fuzzed" });
    const suite = await request("POST", "/api/v1/provision/admin/suites", {
      token: admin,
      body: {
        code: `FUZZ-${crypto.randomUUID().slice(0, 8)}`,
        name: "Fuzz suite",
        memberProductIds: [product.id],
      },
    });
    expect(suite.status, suite.text).toBeLessThan(300);
    const full = await insertEntitlement(tenant);
    await insertEntitlementBalance(tenant, full.id, { totalCredits: 999_999_999_999_000_000 });
    const mine = await insertEntitlement(tenant, {
      customerId: customer.id,
      customerKind: "User",
      consumersMayGrantCredits: true,
      // The grant limits allow the largest grant, so the balance's own ceiling is what refuses it.
      consumerGrantLimitPerGrant: 1e12,
      consumerGrantLimitPerMonth: 1e12,
    });
    await insertEntitlementBalance(tenant, mine.id, { totalCredits: 999_999_999_999_000_000 });
    fixture = {
      admin,
      consumer,
      fullBalanceEntitlementId: full.id,
      consumerFullBalanceEntitlementId: mine.id,
      productId: product.id,
      suiteId: suite.body.id,
    };
  });

  it.each(rows.map((row) => [row.name, row] as const))("%s", async (_name, row) => {
    const { method, path, ...options } = row.request(fixture);
    const res: ApiResponse = await request(method, path, options);
    if ("codeName" in row.expect) {
      expectProblem(res, row.expect.status, row.expect.codeName);
      if (row.expect.detail) expect(res.body.detail).toMatch(row.expect.detail);
    } else {
      expect(res.status, res.text).toBe(row.expect.status);
      expect(res.body.error).toBe(row.expect.oauthError);
    }
  });

  it("a refused overflow changes nothing: the balance and its history stay as they were", async () => {
    const balance = () =>
      testDb().balanceUsage.findFirstOrThrow({
        where: { monitoredAsset: { entitlementId: fixture.fullBalanceEntitlementId } },
      });
    const before = await balance();
    const res = await request("POST", `${OP}/${fixture.fullBalanceEntitlementId}/balances/credits/deposit`, {
      token: fixture.admin,
      body: { amount: 1e12 },
    });
    expect(res.status).toBe(400);
    expect((await balance()).totalCredits.toString()).toBe(before.totalCredits.toString());
    expect(
      await testDb().balanceHistoryEntry.count({
        where: { entitlementId: fixture.fullBalanceEntitlementId },
      }),
    ).toBe(0);
  });
});
