import { systemContext } from "../../../server/domain/context.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../../server/db/client.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import { createTenant } from "../../../server/domain/identity/create-tenant.ts";
import { createClient } from "../../../server/domain/identity/oauth-clients.ts";
import type { DomainContext } from "../../../server/domain/context.ts";
import { createSubscription } from "../../../server/domain/webhooks/subscriptions/create-subscription.ts";
import { updateSubscription } from "../../../server/domain/webhooks/subscriptions/update-subscription.ts";
import { sendWebhookRequest } from "../../../server/domain/webhooks/delivery/send-webhook.ts";
import { adminAccess } from "../../../server/domain/webhooks/subscriptions/subscription-access.ts";
import { createTestTenant, testDb } from "../../helpers/api.ts";
import { startTestServer, type TestServer } from "../../helpers/test-server.ts";
import { startReceiver, type Receiver } from "../../helpers/webhooks.ts";

/**
 * docs/api.md Subscriptions rule 6 and docs/architecture.md section 7, with WEBHOOKS_ALLOW_PRIVATE_URLS off: a
 * second production server started without the test-only switch, plus the domain functions with
 * an injected resolver (offline, no real name resolves to a chosen address).
 */
describe("receiver URL refusal without WEBHOOKS_ALLOW_PRIVATE_URLS (4033)", () => {
  let server: TestServer;
  let serverDb: Db;
  let token: string;
  let receiver: Receiver;
  const flag = process.env.WEBHOOKS_ALLOW_PRIVATE_URLS;

  const create = async (url: string) => {
    const res = await fetch(`${server.baseUrl}/api/v1/webhooks/subscriptions`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ displayName: "x", url, eventTypePatterns: ["*"] }),
    });
    return {
      status: res.status,
      body: (await res.json()) as { code: number; codeName: string; detail: string },
    };
  };

  beforeAll(async () => {
    server = await startTestServer({ extraEnv: { WEBHOOKS_ALLOW_PRIVATE_URLS: "0" } });
    serverDb = createDb(server.databaseUrl, { max: 2 });
    const tenant = await createTenant(serverDb, { name: "No private URLs" });
    const { client, clientSecret } = await createClient(systemContext(serverDb, tenant.tenantId, "test"), {
      name: "t",
      kind: "admin",
      scopes: ["provision.webhook.*"],
    });
    const res = await fetch(`${server.baseUrl}/auth/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: client.clientId,
        client_secret: clientSecret,
        scope: "provision.webhook.*",
      }),
    });
    token = ((await res.json()) as { access_token: string }).access_token;
    receiver = await startReceiver();
    process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "0";
  }, 180_000);

  afterAll(async () => {
    process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = flag;
    await receiver?.close();
    await serverDb?.$disconnect();
    await server?.stop();
  });

  it.each([
    ["plain http", "http://hooks.example.com/webhook"],
    ["loopback", "https://127.0.0.1/hook"],
    ["loopback written as a number", "https://2130706433/hook"],
    ["loopback in hex", "https://0x7f.1/hook"],
    ["IPv6 loopback", "https://[::1]/hook"],
    ["private 10/8", "https://10.1.2.3/hook"],
    ["private 192.168/16", "https://192.168.0.10/hook"],
    ["link-local (cloud metadata)", "https://169.254.169.254/latest/meta-data"],
    ["carrier-grade NAT", "https://100.64.0.1/hook"],
    ["unspecified", "https://0.0.0.0/hook"],
    ["multicast", "https://224.0.0.1/hook"],
    ["IPv6 unique local", "https://[fd00::1]/hook"],
    ["IPv6 link-local", "https://[fe80::1]/hook"],
    ["IPv4-mapped IPv6", "https://[::ffff:127.0.0.1]/hook"],
    ["localhost", "https://localhost/hook"],
    ["localhost with a trailing dot", "https://localhost./hook"],
    ["*.localhost", "https://api.localhost/hook"],
    ["*.local", "https://printer.local/hook"],
    ["*.internal", "https://db.internal/hook"],
    ["a single-label name that resolves to 127.0.0.1 (/etc/hosts)", "https://vm/hook"],
    ["a name that does not resolve", "https://hooks.does-not-exist.example/hook"],
  ])("refuses %s (%s) over HTTP", async (_what, url) => {
    const res = await create(url);
    expect(res.status, res.body.detail).toBe(400);
    expect(res.body).toMatchObject({ code: 4033, codeName: "subscription.invalid_url" });
  });

  describe("after DNS resolution (injected resolver)", () => {
    let ctx: DomainContext;
    beforeAll(async () => {
      const tenant = await createTestTenant("Resolver");
      ctx = {
        tenantId: tenant.tenantId,
        actor: { kind: "system", id: "test" },
        db: tenantDb(testDb(), tenant.tenantId),
      };
    });
    const input = (url: string) => ({ displayName: "x", url, eventTypePatterns: ["*"] });

    it("refuses a public-looking host name that resolves to 127.0.0.1, or to any non-public address among public ones", async () => {
      for (const addresses of [
        ["127.0.0.1"],
        ["8.8.8.8", "10.0.0.7"],
        ["::1"],
        ["2606:4700::1111", "fe80::1"],
      ]) {
        await expect(
          createSubscription(ctx, adminAccess, input("https://hooks.vendor-example.com/x"), {
            resolve: async () => addresses,
          }),
        ).rejects.toMatchObject({
          codeName: "subscription.invalid_url",
          message: expect.stringContaining("is not a public address"),
        });
      }
      const ok = await createSubscription(ctx, adminAccess, input("https://hooks.vendor-example.com/x"), {
        resolve: async () => ["93.184.216.34", "2606:2800:220:1::1"],
      });
      expect(ok).toMatchObject({ state: "PendingVerification", url: "https://hooks.vendor-example.com/x" });
      await expect(
        updateSubscription(
          ctx,
          adminAccess,
          ok.id,
          { url: "https://moved.vendor-example.com/x" },
          { resolve: async () => ["192.168.1.1"] },
        ),
      ).rejects.toMatchObject({
        codeName: "subscription.invalid_url",
      });
    });

    it("checks again at every delivery and connects only to an address that passed (DNS rebinding)", async () => {
      const headers = { "content-type": "application/json" };
      const rebound = await sendWebhookRequest("https://rebind.vendor-example.com/hook", headers, "{}", {
        timeoutMs: 5_000,
        allowPrivate: false,
        maxBodyBytes: 100,
        resolve: async () => ["127.0.0.1"],
      });
      expect(rebound).toMatchObject({
        ok: false,
        status: null,
        error: expect.stringMatching(/^Refused: .*127\.0\.0\.1.*not a public address/),
      });
      expect(receiver.requests).toHaveLength(0);
      // The same lookup path, allowed (tests only), does reach the address it resolved to.
      const allowed = await sendWebhookRequest(
        `http://rebind.vendor-example.com:${receiver.port}/hook`,
        headers,
        "{}",
        {
          timeoutMs: 5_000,
          allowPrivate: true,
          maxBodyBytes: 100,
          resolve: async () => ["127.0.0.1"],
        },
      );
      expect(allowed).toMatchObject({ ok: true, status: 200, body: "ok" });
      expect(receiver.requests).toHaveLength(1);
      const literal = await sendWebhookRequest(`https://127.0.0.1:${receiver.port}/hook`, headers, "{}", {
        timeoutMs: 5_000,
        allowPrivate: false,
        maxBodyBytes: 100,
      });
      expect(literal.error).toMatch(/^Refused/);
    });
  });
});
