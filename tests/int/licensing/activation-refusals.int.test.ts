import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { makeProduct } from "../../helpers/catalog-products.ts";
import { signedInConsumer } from "../../helpers/licensing-fixtures.ts";
import { activated, activateJwt, claimsOf, licensedEntitlement } from "../../helpers/runtime.ts";

const OP = "/api/v1/provision/operational";
const fp = () => `fp-${randomUUID()}`;
const hour = 3600_000;
const day = 24 * hour;

/** Every refusal of the activation decision, with the rule that causes it (docs/decisions.md "Activation"). */
describe("activation refusals: one stable codeName per rule, nothing created", () => {
  let tenant: TestTenant;
  let deviceToken: string;
  let codeToken: string;

  beforeAll(async () => {
    tenant = await createTestTenant("Refusals");
    deviceToken = await tenant.token("provision.device.*");
    codeToken = await tenant.token("provision.activation-code.*");
  });

  const refused = async (
    entitlementId: string,
    body: Record<string, unknown>,
    status: number,
    codeName: string,
    headers: Record<string, string> = {},
  ) => {
    expectProblem(await activateJwt(body, headers), status, codeName);
    expect(await testDb().licenseSession.count({ where: { entitlementId } })).toBe(0);
  };

  it("no code and no interactive user → 400 license.activation_code_required; a malformed body → 400 license.validation_error", async () => {
    expectProblem(await activateJwt({ fingerprint: fp() }), 400, "license.activation_code_required");
    expectProblem(await activateJwt({ activationCode: "X" }), 400, "license.validation_error");
    expectProblem(
      await activateJwt({ activationCode: "X", fingerprint: "" }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await activateJwt({ activationCode: "X", fingerprint: "y", fingerprnt: "typo" }),
      400,
      "license.validation_error",
    );
  });

  it("a code that maps to no entitlement → 404 license.not_found (2004); a Draft or Archived entitlement is not found either", async () => {
    const res = await activateJwt({ activationCode: "ZZZZ-ZZZZ-ZZZZ-ZZZZ", fingerprint: fp() });
    expectProblem(res, 404, "license.not_found");
    expect(res.body.code).toBe(2004);
    for (const status of ["Draft", "Archived"]) {
      const { entitlement, code } = await licensedEntitlement(tenant);
      await testDb().entitlement.update({ where: { id: entitlement.id }, data: { status } });
      await refused(entitlement.id, { activationCode: code, fingerprint: fp() }, 404, "license.not_found");
    }
  });

  it("a revoked code → 403 activation_code.revoked", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant);
    expect(
      (await request("POST", `${OP}/activation-codes/${code}/revoke`, { token: codeToken })).status,
    ).toBe(200);
    await refused(
      entitlement.id,
      { activationCode: code, fingerprint: fp() },
      403,
      "activation_code.revoked",
    );
  });

  it("validity: activations disabled, not yet valid, subscription lapsed, trial ended, expired past grace", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ activationsEnabled: false }, "license.activations_disabled"],
      [{ notValidBeforeDateTime: new Date(Date.now() + day) }, "license.not_yet_valid"],
      [{ subscriptionStatus: "Lapsed" }, "license.subscription_lapsed"],
      [
        { isEntitlementTrial: true, expirationDateTime: new Date(Date.now() - hour) },
        "license.trial_expired",
      ],
      [{ expirationDateTime: new Date(Date.now() - 2 * day) }, "license.expired"],
    ];
    for (const [fields, codeName] of cases) {
      const { entitlement, code } = await licensedEntitlement(tenant, fields);
      await refused(entitlement.id, { activationCode: code, fingerprint: fp() }, 403, codeName);
    }
  });

  it("inside the grace period after expiry the license activates in state Grace, its lease ending with the grace", async () => {
    const expiration = new Date(Date.now() - hour);
    const { code } = await licensedEntitlement(tenant, { expirationDateTime: expiration });
    const { claims } = await activated({ activationCode: code, fingerprint: fp() });
    expect(claims.lic_state).toBe("Grace");
    expect(claims.exp * 1000).toBeLessThanOrEqual(expiration.getTime() + day);
  });

  it("a trial activates in state Trial with a lease that never outlives the trial", async () => {
    const expiration = new Date(Date.now() + 10 * 60_000);
    const { code } = await licensedEntitlement(tenant, {
      isEntitlementTrial: true,
      expirationDateTime: expiration,
    });
    const { claims } = await activated({ activationCode: code, fingerprint: fp() });
    expect(claims.lic_state).toBe("Trial");
    expect(claims.exp * 1000).toBeLessThanOrEqual(expiration.getTime());
    expect(claims.grace_exp * 1000).toBeLessThanOrEqual(expiration.getTime());
  });

  it("activationPolicy: activation workflow → 403 license.forbidden_by_policy; a user level without a user → 401 license.user_authentication_required", async () => {
    const workflow = await licensedEntitlement(tenant, {
      activationPolicy: { requireActivationWorkflow: true },
    });
    await refused(
      workflow.entitlement.id,
      { activationCode: workflow.code, fingerprint: fp() },
      403,
      "license.forbidden_by_policy",
    );
    const userLevel = await licensedEntitlement(tenant, {
      activationPolicy: { requiredAuthenticationLevel: "User" },
    });
    await refused(
      userLevel.entitlement.id,
      { activationCode: userLevel.code, fingerprint: fp() },
      401,
      "license.user_authentication_required",
    );
  });

  it("activationPolicy.allowedIpCidr: outside every block → 403 license.ip_not_allowed; inside → 200", async () => {
    const outside = await licensedEntitlement(tenant, {
      activationPolicy: { allowedIpCidr: ["203.0.113.0/24"] },
    });
    await refused(
      outside.entitlement.id,
      { activationCode: outside.code, fingerprint: fp() },
      403,
      "license.ip_not_allowed",
    );
    // A forged X-Forwarded-For does not get a caller inside the range: the proxy's own entry counts.
    await refused(
      outside.entitlement.id,
      { activationCode: outside.code, fingerprint: fp() },
      403,
      "license.ip_not_allowed",
      { "x-forwarded-for": "203.0.113.9" },
    );
    const inside = await licensedEntitlement(tenant, {
      activationPolicy: { allowedIpCidr: ["203.0.113.0/24", "127.0.0.0/8", "::1/128"] },
    });
    await activated({ activationCode: inside.code, fingerprint: fp() });
  });

  it("activationPolicy.requiredDeviceIdentificationSignatureLength: another length → 400 license.device_signature_invalid", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, {
      activationPolicy: { requiredDeviceIdentificationSignatureLength: 64 },
    });
    await refused(
      entitlement.id,
      { activationCode: code, fingerprint: "short" },
      400,
      "license.device_signature_invalid",
    );
    await activated({ activationCode: code, fingerprint: "a".repeat(64) });
  });

  it("activationPolicy.requireProductCode: missing → 400 license.product_code_required; not on the license → 403 license.product_not_licensed; the licensed one narrows the session's products", async () => {
    const token = await tenant.token("provision.product.*");
    const product = await makeProduct(token, { name: "Editor" });
    const { entitlement, code } = await licensedEntitlement(tenant, {
      productIds: [product.id],
      activationPolicy: { requireProductCode: true },
    });
    await refused(
      entitlement.id,
      { activationCode: code, fingerprint: fp() },
      400,
      "license.product_code_required",
    );
    await refused(
      entitlement.id,
      { activationCode: code, fingerprint: fp(), productCode: "NOT-OURS" },
      403,
      "license.product_not_licensed",
    );
    const { claims } = await activated({
      activationCode: code,
      fingerprint: fp(),
      productCode: product.productCode.toLowerCase(),
    });
    expect(claims.products).toEqual([product.id]);
  });

  it("activationPolicy.requirePreConfiguredDeviceIdentification: an unregistered device → 403 license.device_not_registered; a pre-registered one activates", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, {
      activationPolicy: { requirePreConfiguredDeviceIdentification: true },
    });
    const fingerprint = fp();
    await refused(
      entitlement.id,
      { activationCode: code, fingerprint },
      403,
      "license.device_not_registered",
    );
    const pre = await request("POST", `${OP}/entitlements/${entitlement.id}/devices`, {
      token: deviceToken,
      body: { fingerprint, deviceName: "Lab PC" },
    });
    expect(pre.status, pre.text).toBeLessThan(300);
    await activated({ activationCode: code, fingerprint });
  });

  it("a blocked device → 403 license.device_blocked", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant);
    const fingerprint = fp();
    expect(
      (
        await request("POST", `${OP}/entitlements/${entitlement.id}/devices/block`, {
          token: deviceToken,
          body: { fingerprint },
        })
      ).status,
    ).toBe(200);
    await refused(entitlement.id, { activationCode: code, fingerprint }, 403, "license.device_blocked");
  });

  it("every usable product past end of life → 403 license.product_end_of_life for a new device; a device that activated before still activates", async () => {
    const token = await tenant.token("provision.product.*");
    const product = await makeProduct(token, { name: "Legacy" });
    const { entitlement, code } = await licensedEntitlement(tenant, { productIds: [product.id] });
    const veteran = fp();
    const first = await activated({ activationCode: code, fingerprint: veteran });
    await testDb().product.update({
      where: { id: product.id },
      data: { expirationDate: new Date(Date.now() - day) },
    });
    expectProblem(
      await activateJwt({ activationCode: code, fingerprint: fp() }),
      403,
      "license.product_end_of_life",
    );
    const again = await activated({ activationCode: code, fingerprint: veteran });
    expect(again.sessionId).toBe(first.sessionId);
    expect(await testDb().licenseSession.count({ where: { entitlementId: entitlement.id } })).toBe(1);
  });

  it("seats: a node-locked single seat taken → 409 license.no_seat_available for another device", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, {
      claimBasedActivation: { numberOfSeats: 1 },
    });
    await activated({ activationCode: code, fingerprint: fp() });
    expectProblem(
      await activateJwt({ activationCode: code, fingerprint: fp() }),
      409,
      "license.no_seat_available",
    );
    expect(await testDb().licenseSession.count({ where: { entitlementId: entitlement.id } })).toBe(1);
  });

  it("the code's device limit: a second device on a one-device code → 409 license.device_limit_reached; the first device re-activates", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, {}, { deviceLimit: 1 });
    const first = fp();
    const a = await activated({ activationCode: code, fingerprint: first });
    expectProblem(
      await activateJwt({ activationCode: code, fingerprint: fp() }),
      409,
      "license.device_limit_reached",
    );
    expect((await activated({ activationCode: code, fingerprint: first })).sessionId).toBe(a.sessionId);
    expect(await testDb().licenseSession.count({ where: { entitlementId: entitlement.id } })).toBe(1);
  });

  it("Idempotency-Key is durable on the session: an identical replay returns the same session; the same key with other parameters → 409 idempotency.key_reused", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant);
    const key = `act-${randomUUID()}`;
    const fingerprint = fp();
    const a = await activated({ activationCode: code, fingerprint }, { "idempotency-key": key });
    const b = await activated({ activationCode: code, fingerprint }, { "idempotency-key": key });
    expect(b.sessionId).toBe(a.sessionId);
    expectProblem(
      await activateJwt({ activationCode: code, fingerprint: fp() }, { "idempotency-key": key }),
      409,
      "idempotency.key_reused",
    );
    expect(await testDb().licenseSession.count({ where: { entitlementId: entitlement.id } })).toBe(1);
    expectProblem(
      await activateJwt({ activationCode: code, fingerprint }, { "idempotency-key": "k".repeat(201) }),
      400,
      "license.validation_error",
    );
  });

  it("interactive user: the user's token resolves their one license (code optional); two licenses need a code; no token → 401", async () => {
    const consumer = await signedInConsumer(tenant);
    const assigned = { customerId: consumer.customer.id, customerKind: "User" };
    const one = await licensedEntitlement(tenant, assigned);
    const auth = { authorization: `Bearer ${consumer.token}` };
    const a = await activated({ useInteractiveUser: true, fingerprint: fp() }, auth);
    expect(a.claims.ent).toBe(one.entitlement.id);
    expect(
      (await testDb().licenseSession.findUniqueOrThrow({ where: { id: a.sessionId } })).activatedByUserId,
    ).toBe(consumer.user.id);

    const two = await licensedEntitlement(tenant, assigned);
    expectProblem(
      await activateJwt({ useInteractiveUser: true, fingerprint: fp() }, auth),
      400,
      "license.activation_code_required",
    );
    expect(
      (await activated({ useInteractiveUser: true, activationCode: two.code, fingerprint: fp() }, auth))
        .claims.ent,
    ).toBe(two.entitlement.id);

    const stranger = await licensedEntitlement(tenant);
    expectProblem(
      await activateJwt({ useInteractiveUser: true, activationCode: stranger.code, fingerprint: fp() }, auth),
      404,
      "license.not_found",
    );
    expectProblem(
      await activateJwt({ useInteractiveUser: true, fingerprint: fp() }),
      401,
      "license.user_authentication_required",
    );
    expectProblem(
      await activateJwt(
        { useInteractiveUser: true, fingerprint: fp() },
        { authorization: "Bearer not-a-token" },
      ),
      401,
      "auth.unauthenticated",
    );
  });

  it("a user-level license activates for its signed-in user", async () => {
    const consumer = await signedInConsumer(tenant);
    const { entitlement, code } = await licensedEntitlement(tenant, {
      customerId: consumer.customer.id,
      customerKind: "User",
      activationPolicy: { requiredAuthenticationLevel: "User" },
    });
    const { token } = await activated(
      { useInteractiveUser: true, activationCode: code, fingerprint: fp() },
      { authorization: `Bearer ${consumer.token}` },
    );
    expect(claimsOf(token).ent).toBe(entitlement.id);
  });
});
