import { randomUUID } from "node:crypto";
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, createTestTenant, request, type TestTenant } from "../../helpers/api.ts";
import { fingerprintHash } from "../../helpers/licensing-fixtures.ts";
import { entitlementCatalog, makeOffer, ok } from "../../helpers/entitlements.ts";
import { makeProduct } from "../../helpers/catalog-products.ts";
import { activated, ACTIVATIONS, licensedEntitlement, sessionCall } from "../../helpers/runtime.ts";

/**
 * The full claim set of a license token, for each licensing model, checked exactly (`toEqual`):
 * a claim the token loses or gains fails here, where checking a few claims with `toMatchObject`
 * let a dropped `floating` pass while the reference client read `undefined`. Values the service
 * picks (ids, times) are matched by shape; the lease and grace spans are written out.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HOUR_S = 3600;
const DAY_S = 86_400;

/** A feature snapshot on the entitlement, carried in the token (includeInLicenseToken). */
const feature = (featureCode: string, value: string | null) => ({
  id: randomUUID(),
  featureCode,
  productId: randomUUID(),
  moduleName: null,
  name: featureCode,
  description: `${featureCode} feature`,
  value,
  isEnabled: true,
  isAvailableDuringTrialPeriod: true,
  isAvailableDuringGracePeriod: true,
  isPaidFeature: false,
  canModifyValueOnEntitlement: false,
  includeInLicenseToken: true,
  meteredAssetId: null,
  featureExpiration: null,
  catalogLifecycleStatus: "Published",
});

// Many activations per test on a shared machine: more time than the suite's 30 s.
describe("license token claims: the exact claim set for each licensing model", { timeout: 90_000 }, () => {
  let tenant: TestTenant;
  let productId: string;

  beforeAll(async () => {
    tenant = await createTestTenant("Token claims");
    productId = (await makeProduct(await tenant.token("provision.product.*"), { name: "Claims" })).id;
  });

  /** The verified payload (signature, issuer and audience checked against the tenant's JWKS). */
  async function verified(token: string): Promise<JWTPayload> {
    const jwks = createRemoteJWKSet(
      new URL(`${baseUrl()}/api/v1/provision/tenants/${tenant.tenantId}/jwks.json`),
    );
    const { payload, protectedHeader } = await jwtVerify(token, jwks, {
      audience: "license",
      issuer: `urn:licensing:tenant:${tenant.tenantId}`,
    });
    expect(protectedHeader).toEqual({ alg: "RS256", kid: expect.any(String), typ: "JWT" });
    return payload;
  }

  /** Every claim a license token carries, with the model's own values. */
  const claimSet = (fields: {
    sessionId: string;
    entitlementId: string;
    fingerprint: string;
    licState: "Active" | "Trial" | "Grace";
    floating: boolean;
    products: string[];
    features: Record<string, string | boolean>;
  }) => ({
    iss: `urn:licensing:tenant:${tenant.tenantId}`,
    aud: "license",
    sub: fields.sessionId,
    ent: fields.entitlementId,
    tid: tenant.tenantId,
    dev_fp: fingerprintHash(fields.fingerprint),
    iat: expect.any(Number),
    exp: expect.any(Number),
    jti: expect.stringMatching(UUID),
    lic_state: fields.licState,
    grace_exp: expect.any(Number),
    floating: fields.floating,
    products: fields.products,
    features: fields.features,
  });

  /**
   * The lease runs one hour from the activation; `iat` is when the token was signed, a moment
   * later (seconds on a loaded machine), so exp − iat is at most an hour and within a minute of it.
   */
  const expectLeaseOfOneHour = (payload: JWTPayload) => {
    expect(payload.exp! - payload.iat!).toBeGreaterThan(HOUR_S - 60);
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(HOUR_S);
  };

  it("node-locked: floating false, lic_state Active, the licensed products and token features, grace one day after the lease", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, {
      productIds: [productId],
      features: [feature("SEATS", "25"), feature("SSO", null)],
    });
    const fingerprint = `node-locked-${randomUUID()}`;
    const { token, sessionId } = await activated({ activationCode: code, fingerprint });
    const payload = await verified(token);
    expect(payload).toEqual(
      claimSet({
        sessionId,
        entitlementId: entitlement.id,
        fingerprint,
        licState: "Active",
        floating: false,
        products: [productId],
        features: { SEATS: "25", SSO: true },
      }),
    );
    expect(sessionId).toMatch(UUID);
    expectLeaseOfOneHour(payload);
    expect((payload.grace_exp as number) - payload.exp!).toBe(DAY_S);
  });

  it("floating (one seat per process): floating true, the same claim set otherwise", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, {
      productIds: [productId],
      claimBasedActivation: { numberOfSeats: 2, isFloatingLicense: true },
    });
    const fingerprint = `floating-${randomUUID()}`;
    const { token, sessionId } = await activated({ activationCode: code, fingerprint, processId: "4242" });
    const payload = await verified(token);
    expect(payload).toEqual(
      claimSet({
        sessionId,
        entitlementId: entitlement.id,
        fingerprint,
        licState: "Active",
        floating: true,
        products: [productId],
        features: {},
      }),
    );
    expectLeaseOfOneHour(payload);
    expect((payload.grace_exp as number) - payload.exp!).toBe(DAY_S);
  });

  it("inactivity-based: the token's lease is still the lease (the seat hold is not a claim)", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, {
      claimBasedActivation: {
        numberOfSeats: 2,
        isFloatingLicense: true,
        isInactivityBased: true,
        inactivityTimeout: "PT10M",
      },
    });
    const fingerprint = `inactivity-${randomUUID()}`;
    const { token, sessionId } = await activated({ activationCode: code, fingerprint });
    const payload = await verified(token);
    expect(payload).toEqual(
      claimSet({
        sessionId,
        entitlementId: entitlement.id,
        fingerprint,
        licState: "Active",
        floating: true,
        products: [],
        features: {},
      }),
    );
    expectLeaseOfOneHour(payload);
  });

  it("trial: lic_state Trial", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, {
      isEntitlementTrial: true,
      expirationDateTime: new Date(Date.now() + 30 * DAY_S * 1000),
    });
    const fingerprint = `trial-${randomUUID()}`;
    const { token, sessionId } = await activated({ activationCode: code, fingerprint });
    const payload = await verified(token);
    expect(payload).toEqual(
      claimSet({
        sessionId,
        entitlementId: entitlement.id,
        fingerprint,
        licState: "Trial",
        floating: false,
        products: [],
        features: {},
      }),
    );
    expectLeaseOfOneHour(payload);
  });

  it("grace (expired an hour ago, one day of grace): lic_state Grace, grace_exp at the license's last grace", async () => {
    // Whole seconds, so the claim (seconds) is exactly the expiration plus one day.
    const expiredAt = Math.floor(Date.now() / 1000) * 1000 - HOUR_S * 1000;
    const { entitlement, code } = await licensedEntitlement(tenant, {
      expirationDateTime: new Date(expiredAt),
    });
    const fingerprint = `grace-${randomUUID()}`;
    const { token, sessionId } = await activated({ activationCode: code, fingerprint });
    const payload = await verified(token);
    expect(payload).toEqual(
      claimSet({
        sessionId,
        entitlementId: entitlement.id,
        fingerprint,
        licState: "Grace",
        floating: false,
        products: [],
        features: {},
      }),
    );
    expect(payload.grace_exp).toBe(expiredAt / 1000 + DAY_S);
  });

  it("a renewed token carries the same claim set as the activation's, with a new jti", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, {
      claimBasedActivation: { numberOfSeats: 1, isFloatingLicense: true },
    });
    const fingerprint = `renew-${randomUUID()}`;
    const first = await activated({ activationCode: code, fingerprint });
    const renewed = await sessionCall("renew", first.sessionId, first.token);
    expect(renewed.status, renewed.text).toBe(200);
    const payload = await verified(renewed.body.token);
    expect(payload).toEqual(
      claimSet({
        sessionId: first.sessionId,
        entitlementId: entitlement.id,
        fingerprint,
        licState: "Active",
        floating: true,
        products: [],
        features: {},
      }),
    );
    expect(payload.jti).not.toBe(first.claims.jti);
  });

  it("anonymous try: a Trial token on the try license, with the offer's products and plan features", async () => {
    const cat = await entitlementCatalog(tenant);
    const offer = await makeOffer(cat.token, {
      name: "Claims trial",
      productIds: [cat.product.id],
      planSetId: cat.planSet.id,
      planName: "Pro",
      allowAnonymousTry: true,
      validityDays: 14,
      claimBasedActivation: {
        leaseTime: "PT1H",
        gracePeriod: "P1D",
        numberOfSeats: 1,
        isFloatingLicense: false,
      },
    });
    const fingerprint = `try-${randomUUID()}`;
    const res = ok(
      await request("POST", `${ACTIVATIONS}/anonymous-try`, {
        body: { offerId: offer.id, fingerprint, deviceName: "Laptop" },
      }),
    );
    const payload = await verified(res.token);
    expect(payload).toEqual(
      claimSet({
        sessionId: res.sessionId,
        entitlementId: res.anonymousTry.entitlementId,
        fingerprint,
        licState: "Trial",
        floating: false,
        products: [cat.product.id],
        // The offer's plan "Pro": 20 seats and SSO on (tests/helpers/entitlements.ts).
        features: { [cat.seats.featureCode]: "20", [cat.sso.featureCode]: "true" },
      }),
    );
    expectLeaseOfOneHour(payload);
  });
});
