import { randomUUID } from "node:crypto";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, createTestTenant, expectProblem, testDb, type TestTenant } from "../../helpers/api.ts";
import { fingerprintHash } from "../../helpers/licensing-fixtures.ts";
import {
  activated,
  activateJwt,
  activateLicense,
  claimsOf,
  licensedEntitlement,
  sessionCall,
} from "../../helpers/runtime.ts";

describe("activation: lifecycle over HTTP", () => {
  let tenant: TestTenant;

  beforeAll(async () => {
    tenant = await createTestTenant("Runtime");
  });

  it("activate → verify offline against the JWKS → renew → check-in → release → re-activate makes a new session", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant);
    const fingerprint = `fp-${randomUUID()}`;
    const first = await activated({ activationCode: code, fingerprint, deviceName: "Build agent" });

    const jwks = createRemoteJWKSet(
      new URL(`${baseUrl()}/api/v1/provision/tenants/${tenant.tenantId}/jwks.json`),
    );
    const { payload, protectedHeader } = await jwtVerify(first.token, jwks, {
      audience: "license",
      issuer: `urn:licensing:tenant:${tenant.tenantId}`,
    });
    expect(protectedHeader.alg).toBe("RS256");
    expect(payload).toMatchObject({
      sub: first.sessionId,
      ent: entitlement.id,
      tid: tenant.tenantId,
      dev_fp: fingerprintHash(fingerprint),
      lic_state: "Active",
    });
    expect(typeof payload.jti).toBe("string");
    const lease = (payload.exp! - payload.iat!) * 1000;
    expect(lease).toBeGreaterThan(3500_000);
    expect(lease).toBeLessThanOrEqual(3600_000);

    const renewed = await sessionCall("renew", first.sessionId, first.token);
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.body).toMatchObject({
      sessionId: first.sessionId,
      entitlementId: entitlement.id,
      state: "Active",
      token: expect.any(String),
    });
    expect(claimsOf(renewed.body.token).sub).toBe(first.sessionId);

    const checkIn = await sessionCall("check-in", first.sessionId, renewed.body.token);
    expect(checkIn.status, checkIn.text).toBe(200);
    expect(checkIn.body.lastContactAt).not.toBeNull();

    const released = await sessionCall("release", first.sessionId, renewed.body.token);
    expect(released.status, released.text).toBe(200);
    expect(released.body.state).toBe("Released");
    expectProblem(
      await sessionCall("renew", first.sessionId, renewed.body.token),
      409,
      "license.no_active_session",
    );

    const again = await activated({ activationCode: code, fingerprint });
    expect(again.sessionId).not.toBe(first.sessionId);
  });

  it("the same code and fingerprint returns the existing session, never a second seat", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant);
    const fingerprint = `fp-${randomUUID()}`;
    const a = await activated({ activationCode: code, fingerprint });
    const b = await activated({ activationCode: code.toLowerCase(), fingerprint });
    expect(b.sessionId).toBe(a.sessionId);
    expect(await testDb().licenseSession.count({ where: { entitlementId: entitlement.id } })).toBe(1);
  });

  it("/activations/license answers the token and the license metadata", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, {
      licenseTermsUrl: "https://example.com/terms",
    });
    const res = await activateLicense({ activationCode: code, fingerprint: `fp-${randomUUID()}` });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      token: expect.any(String),
      license: {
        entitlementId: entitlement.id,
        licenseTermsUrl: "https://example.com/terms",
        description: "A test license",
        state: "Active",
      },
    });
    expect(res.body.sessionId).toBe(claimsOf(res.body.token).sub);
  });

  it("the token carries the enabled features with includeInLicenseToken, narrowed to those a trial may use", async () => {
    const productId = randomUUID();
    const feature = (featureCode: string, flags: Record<string, unknown>) => ({
      id: randomUUID(),
      featureCode,
      productId,
      moduleName: null,
      name: featureCode,
      description: `${featureCode} feature`,
      value: null,
      isEnabled: true,
      isAvailableDuringTrialPeriod: true,
      isAvailableDuringGracePeriod: true,
      isPaidFeature: false,
      canModifyValueOnEntitlement: false,
      includeInLicenseToken: true,
      meteredAssetId: null,
      featureExpiration: null,
      catalogLifecycleStatus: "Published",
      ...flags,
    });
    const features = [
      feature("SEATS", { value: "25" }),
      feature("SSO", {}),
      feature("INTERNAL", { includeInLicenseToken: false }),
      feature("OFF", { isEnabled: false }),
      feature("PAID_ONLY", { isAvailableDuringTrialPeriod: false }),
    ];
    const paid = await licensedEntitlement(tenant, { features, productIds: [] });
    expect(
      (await activated({ activationCode: paid.code, fingerprint: `fp-${randomUUID()}` })).claims.features,
    ).toEqual({ SEATS: "25", SSO: true, PAID_ONLY: true });
    const trial = await licensedEntitlement(tenant, {
      features,
      isEntitlementTrial: true,
      expirationDateTime: new Date(Date.now() + 86_400_000),
    });
    expect(
      (await activated({ activationCode: trial.code, fingerprint: `fp-${randomUUID()}` })).claims.features,
    ).toEqual({ SEATS: "25", SSO: true });
  });

  it("an unknown code is 404 license.not_found", async () => {
    expectProblem(
      await activateJwt({ activationCode: "NOPE-NOPE-NOPE", fingerprint: "x" }),
      404,
      "license.not_found",
    );
  });
});
