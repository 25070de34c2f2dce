// The integrator guides' code (docs/guides/examples/*.ts, shown verbatim in docs/guides/*.md) run
// against the real server, so a guide that stops working fails here.
import { randomUUID } from "node:crypto";
import type { Runner } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, createTestTenant, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { licensedEntitlement, ACTIVATIONS } from "../../helpers/runtime.ts";
import { meteredLicense } from "../../helpers/metering.ts";
import { makeOffer } from "../../helpers/entitlements.ts";
import { eventually, startWorker, stopWorker } from "../../helpers/webhooks.ts";
import { newSecret } from "../../helpers/webhook-fixtures.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { createClient } from "../../../server/domain/identity/oauth-clients.ts";
import * as licensing from "../../../docs/guides/examples/licensing.ts";
import * as metering from "../../../docs/guides/examples/metering.ts";
import * as provisioning from "../../../docs/guides/examples/provisioning.ts";
import * as webhooks from "../../../docs/guides/examples/webhooks.ts";

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTestTenant("Guides");
});

async function clientCredentials(scopes: string[], kind: "admin" | "integrator" = "admin") {
  const { client, clientSecret } = await createClient(systemContext(testDb(), tenant.tenantId, "test"), {
    name: `guide ${kind}`,
    kind,
    scopes,
  });
  return { clientId: client.clientId, clientSecret };
}

describe("guide: licensing a desktop or server application", () => {
  it("activates, verifies offline, renews, checks in and releases; a released session asks to activate again", async () => {
    const { code } = await licensedEntitlement(tenant, { name: "Guide license" });
    const fingerprint = `machine-${randomUUID()}`;

    const { stored, licenseName, state } = await licensing.activate(baseUrl(), code, fingerprint);
    expect(licenseName).toBe("Guide license");
    expect(state).toBe("Active");

    const jwks = await licensing.fetchJwks(baseUrl(), tenant.tenantId);
    const verified = await licensing.verifyOffline(stored.token, jwks, tenant.tenantId, fingerprint);
    expect(verified.state).toBe("Active");
    // exp is whole seconds: the lease end rounded down.
    expect(verified.leaseEndsAt.getTime()).toBe(Math.floor(Date.parse(stored.leaseExpiresAt) / 1000) * 1000);
    await expect(
      licensing.verifyOffline(stored.token, jwks, tenant.tenantId, "another-machine"),
    ).rejects.toThrow("This license belongs to another device.");
    // A token of another tenant's issuer does not verify against this tenant.
    await expect(licensing.verifyOffline(stored.token, jwks, randomUUID(), fingerprint)).rejects.toThrow();

    // Activating again after a network error (same key, same request) answers the same session.
    const again = await licensing.activate(baseUrl(), code, fingerprint);
    expect(again.stored.sessionId).toBe(stored.sessionId);

    const renewed = await licensing.renew(baseUrl(), stored);
    expect(renewed.sessionId).toBe(stored.sessionId);
    expect(renewed.token).not.toBe(stored.token);
    expect((await licensing.verifyOffline(renewed.token, jwks, tenant.tenantId, fingerprint)).state).toBe(
      "Active",
    );

    expect((await licensing.checkIn(baseUrl(), renewed)).state).toBe("Active");
    expect((await licensing.release(baseUrl(), renewed)).state).toBe("Released");

    const refusal = await licensing.renew(baseUrl(), renewed).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(licensing.LicenseRefusal);
    expect((refusal as licensing.LicenseRefusal).codeName).toBe("license.no_active_session");
    expect(licensing.nextStep(refusal as licensing.LicenseRefusal)).toBe("activate-again");
  }, 60_000); // the file's first calls meet a cold server

  it("maps each refusal to what the application does", async () => {
    const refusal = await licensing
      .activate(baseUrl(), "NOPE-NOPE-NOPE-NOPE", "machine-x")
      .catch((e: unknown) => e as licensing.LicenseRefusal);
    expect(refusal).toMatchObject({ status: 404, codeName: "license.not_found" });
    expect(licensing.nextStep(refusal as licensing.LicenseRefusal)).toBe("ask-for-another-code");

    const { code } = await licensedEntitlement(tenant, { claimBasedActivation: { numberOfSeats: 1 } });
    await licensing.activate(baseUrl(), code, "first-machine");
    const full = await licensing
      .activate(baseUrl(), code, "second-machine")
      .catch((e: unknown) => e as licensing.LicenseRefusal);
    expect(full).toMatchObject({ status: 409, codeName: "license.no_seat_available" });
    expect(licensing.nextStep(full as licensing.LicenseRefusal)).toBe("ask-to-free-a-seat");
  });

  it("offline activation: the operator's response file verifies with the tenant's public key; a tampered one does not", async () => {
    const { code, entitlement } = await licensedEntitlement(tenant, {
      name: "Air-gapped",
      claimBasedActivation: { allowOfflineActivation: true },
    });
    const requestFile = licensing.offlineRequest(code, "air-gapped-machine");
    const operator = await tenant.token("provision.offline.*");
    const issued = await request("POST", "/api/v1/provision/operational/activations/offline/issue", {
      token: operator,
      body: requestFile,
    });
    expect(issued.status, issued.text).toBe(200);
    const jwks = await licensing.fetchJwks(baseUrl(), tenant.tenantId);
    const license = licensing.verifyOfflineResponse(issued.body, jwks);
    expect(JSON.stringify(license)).toContain(entitlement.id);
    expect(JSON.stringify(license)).toContain(requestFile.meta.nonce);

    const tampered = { ...issued.body, signedPayload: `${issued.body.signedPayload}x` };
    expect(() => licensing.verifyOfflineResponse(tampered, jwks)).toThrow(
      "The response file was not signed by the vendor.",
    );
  });
});

describe("guide: metering from an application", () => {
  it("consumes before an action once per action id, refuses past the allowance, previews without charging", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [{ metricName: "exports", metered: { consumptionPeriod: "month" } }],
      features: [{ metricName: "exports", value: "10" }],
    });
    const session = await license.session();

    const first = await metering.consumeBeforeAction(baseUrl(), session, "exports", 4, "export-1");
    expect(first).toMatchObject({
      allowed: true,
      committed: true,
      usage: 4,
      remaining: 6,
      idempotentReplay: false,
    });
    // The retry of the same action after a timeout answers the first decision: nothing charged twice.
    const retried = await metering.consumeBeforeAction(baseUrl(), session, "exports", 4, "export-1");
    expect(retried).toMatchObject({ allowed: true, usage: 4, idempotentReplay: true });

    const tooMuch = await metering.consumeBeforeAction(baseUrl(), session, "exports", 7, "export-2");
    expect(tooMuch).toMatchObject({ allowed: false, committed: false, reasonCode: "QuotaExceeded" });

    const preview = await metering.previewConsume(baseUrl(), session, "exports", 6);
    expect(preview).toMatchObject({ allowed: true, committed: false });

    expect(await metering.remainingAllowance(baseUrl(), session, "exports")).toEqual({
      usage: 4,
      limit: 10,
      remaining: 6,
    });
    expect(await metering.remainingAllowance(baseUrl(), session, "not-tracked")).toBeNull();
  });

  it("uploads recorded usage in batches; sending the same records again counts nothing twice", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [{ metricName: "pages", metered: { consumptionPeriod: "month" } }],
      features: [{ metricName: "pages", value: "1000" }],
    });
    const session = await license.session();
    const records = Array.from({ length: 250 }, (_, i) =>
      metering.usageRecord(session.sessionId, i + 1, "pages", 2),
    );

    expect(await metering.uploadUsage(baseUrl(), session, records)).toEqual({
      counted: 250,
      duplicates: 0,
      retryLater: false,
    });
    expect(await metering.uploadUsage(baseUrl(), session, records)).toEqual({
      counted: 0,
      duplicates: 250,
      retryLater: false,
    });
    expect(await metering.remainingAllowance(baseUrl(), session, "pages")).toEqual({
      usage: 500,
      limit: 1000,
      remaining: 500,
    });
  });
});

describe("guide: provisioning from a vendor backend", () => {
  it("a paid order makes one customer, one entitlement and one code, even when the payment event comes twice; renew and suspend follow the subscription", async () => {
    const admin = await tenant.token(["provision.entitlement-adm.*"]);
    const offer = await makeOffer(admin, {
      name: "Guide offer",
      validityDays: 365,
      claimBasedActivation: { numberOfSeats: 3 },
    });
    const { clientId, clientSecret } = await clientCredentials([
      "provision.entitlement-adm.*",
      "provision.activation-code.*",
      "provision.customer.*",
    ]);
    const { token, expiresAt } = await provisioning.accessToken(baseUrl(), clientId, clientSecret);
    expect(expiresAt).toBeGreaterThan(Date.now() + 14 * 60_000);

    const order = {
      orderId: `order-${randomUUID().slice(0, 8)}`,
      offerId: offer.id as string,
      email: `buyer-${randomUUID().slice(0, 8)}@example.com`,
      firstName: "Ada",
      lastName: "Byron",
    };
    const made = await provisioning.provisionPaidOrder(baseUrl(), token, order);
    const redelivered = await provisioning.provisionPaidOrder(baseUrl(), token, order);
    expect(redelivered).toEqual(made);

    const entitlement = await request("GET", `/api/v1/provision/admin/entitlements/${made.entitlementId}`, {
      token: admin,
    });
    expect(entitlement.body).toMatchObject({
      customerId: made.customerId,
      reference: order.orderId,
      status: "Published",
    });

    const activated = await request("POST", `${ACTIVATIONS}/jwt`, {
      body: { activationCode: made.activationCode, fingerprint: "customer-laptop" },
    });
    expect(activated.status, activated.text).toBe(200);

    const until = new Date(Date.UTC(2031, 0, 31, 12, 0, 0));
    const renewed = await provisioning.renewEntitlement(baseUrl(), token, made.entitlementId, until);
    expect(renewed.expirationDateTime).toBe("2031-01-31T12:00:00.000Z");

    await provisioning.suspendActivations(baseUrl(), token, made.entitlementId);
    const refused = await request("POST", `${ACTIVATIONS}/jwt`, {
      body: { activationCode: made.activationCode, fingerprint: "customer-desktop" },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.codeName).toBe("license.activations_disabled");

    await provisioning.resumeActivations(baseUrl(), token, made.entitlementId);
    const resumed = await request("POST", `${ACTIVATIONS}/jwt`, {
      body: { activationCode: made.activationCode, fingerprint: "customer-desktop" },
    });
    expect(resumed.status, resumed.text).toBe(200);
  });
});

describe("guide: receiving webhooks", () => {
  let runner: Runner | undefined;
  beforeAll(async () => {
    runner = await startWorker();
  });
  afterAll(async () => stopWorker(runner));

  it("verifies, parses and processes each event once, including after a replay of the same window", async () => {
    const secret = newSecret();
    const processed: webhooks.LicensingEvent[] = [];
    let requests = 0;
    const receiver = webhooks.createReceiver({ secret, onEvent: (event) => void processed.push(event) });
    receiver.on("request", () => requests++);
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const { port } = receiver.address() as { port: number };
    try {
      const integrator = await tenant.token("webhooks.integrator");
      const subscriptions = "/api/v1/webhooks/integrator/subscriptions";
      const created = await request("POST", subscriptions, {
        token: integrator,
        body: {
          displayName: "Guide receiver",
          url: `http://127.0.0.1:${port}/hooks`,
          eventTypePatterns: ["User.Created"],
          secret,
        },
      });
      expect(created.status, created.text).toBe(201);
      const verified = await request("POST", `${subscriptions}/${created.body.id}/verify`, {
        token: integrator,
      });
      expect(verified.body.state, verified.text).toBe("Active");

      const from = new Date(Date.now() - 60_000);
      const admin = await tenant.token(["provision.customer.*"]);
      const email = `hooked-${randomUUID().slice(0, 8)}@example.com`;
      const customer = await request("POST", "/api/v1/provision/admin/customers/users", {
        token: admin,
        body: { email },
      });
      expect([200, 201], customer.text).toContain(customer.status);

      const event = await eventually(
        () => processed.find((e) => e.type === "User.Created"),
        20_000,
        "User.Created",
      );
      expect(event.data).toMatchObject({ id: customer.body.id, email });
      expect(event.source).toBe(`urn:licensing:tenant:${tenant.tenantId}`);

      const before = requests;
      await webhooks.replayWindow(
        baseUrl(),
        integrator,
        created.body.id,
        from,
        new Date(Date.now() + 60_000),
      );
      await eventually(() => requests > before, 20_000, "the replayed delivery");
      expect(processed.filter((e) => e.type === "User.Created")).toHaveLength(1);

      // A forged delivery (wrong secret) is refused before anything is parsed.
      const forged = await fetch(`http://127.0.0.1:${port}/hooks`, {
        method: "POST",
        headers: {
          "webhook-id": "msg_forged",
          "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
          "webhook-signature": "v1,AAAA",
        },
        body: "{}",
      });
      expect(forged.status).toBe(401);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
