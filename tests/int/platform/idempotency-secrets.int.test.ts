import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { offlineRequestArtifact } from "../../helpers/offline.ts";
import { activateJwt, ACTIVATIONS, licensedEntitlement } from "../../helpers/runtime.ts";
import { startReceiver, type Receiver } from "../../helpers/webhooks.ts";

/**
 * Idempotency records kept the responses they replay in clear for 24 hours, and
 * some responses carry secrets (webhook signing secrets, license tokens, offline artifacts). The
 * stored response is sealed with the service secret; a replay still answers the same bytes.
 */
describe("idempotency records never hold a response's secrets in clear", () => {
  let tenant: TestTenant;
  let receiver: Receiver;

  beforeAll(async () => {
    tenant = await createTestTenant("Idempotency secrets");
    receiver = await startReceiver();
  });
  afterAll(async () => receiver?.close());

  const storedBodies = async (key: string) => {
    const rows = await testDb().idempotencyRecord.findMany({ where: { tenantId: tenant.tenantId, key } });
    expect(rows).toHaveLength(1);
    return rows[0].responseBody;
  };

  /** Sends the keyed request twice: the replay must answer the first response unchanged. */
  async function keyedTwice(
    method: string,
    path: string,
    options: { token: string; body?: unknown },
  ): Promise<{ key: string; body: any }> {
    const key = `key-${randomUUID()}`;
    const send = () => request(method, path, { ...options, headers: { "idempotency-key": key } });
    const first = await send();
    expect(first.status, first.text).toBeLessThan(300);
    const replay = await send();
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(first.text);
    return { key, body: first.body };
  }

  it("a webhook subscription's signing secret is not stored in clear (and its replay still shows it)", async () => {
    const token = await tenant.token("provision.webhook.*");
    const { key, body } = await keyedTwice("POST", "/api/v1/webhooks/subscriptions", {
      token,
      body: { displayName: "Sealed", url: receiver.url, eventTypePatterns: ["Entitlement.Activated"] },
    });
    expect(body.secret).toMatch(/^whsec_/);
    const stored = await storedBodies(key);
    expect(stored).not.toContain(body.secret.slice("whsec_".length));
    expect(stored).not.toContain(body.id);
  });

  it("a renewed license token is not stored in clear (and its replay still answers it)", async () => {
    const { code } = await licensedEntitlement(tenant);
    const activated = await activateJwt({ activationCode: code, fingerprint: `fp-${randomUUID()}` });
    expect(activated.status, activated.text).toBe(200);
    const licenseToken = activated.body as string;
    const sessionId = JSON.parse(Buffer.from(licenseToken.split(".")[1], "base64url").toString()).sub;
    const { key, body } = await keyedTwice("POST", `${ACTIVATIONS}/${sessionId}/renew`, {
      token: licenseToken,
    });
    expect(body.token).toMatch(/^eyJ/);
    const stored = await storedBodies(key);
    expect(stored).not.toContain(body.token.split(".")[2]);
    expect(stored).not.toContain(sessionId);
  });

  it("an offline response artifact is not stored in clear (and its replay still answers it)", async () => {
    const { code } = await licensedEntitlement(tenant, {
      claimBasedActivation: { allowOfflineActivation: true },
    });
    const { key, body } = await keyedTwice(
      "POST",
      "/api/v1/provision/operational/activations/offline/issue",
      {
        token: await tenant.token("provision.offline.create"),
        body: offlineRequestArtifact(code, `fp-${randomUUID()}`),
      },
    );
    const stored = await storedBodies(key);
    expect(stored).not.toContain(body.signature);
    expect(stored).not.toContain(body.signedPayload.slice(0, 64));
  });
});
