import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { systemContext } from "../../../server/domain/context.ts";
import { rotateTenantSigningKey } from "../../../server/domain/identity/rotate-tenant-signing-key.ts";
import { setTenantRateLimit } from "../../../server/domain/rate-limits/rate-limit-overrides.ts";
import { createTestTenant, testDb, type TestTenant } from "../../helpers/api.ts";
import { licensedEntitlement } from "../../helpers/runtime.ts";
import { startTestServer, type TestServer } from "../../helpers/test-server.ts";

/**
 * Issue 26, cross-process correctness: two web processes share one port (WEB_CONCURRENCY=2, the
 * primary hands connections round-robin), on the integration run's database. Each process keeps
 * its caches (verified license tokens, the remembered entitlement of renew/check-in, signing keys,
 * tenant clients, rate-limit policies); none may let it act on what another process changed.
 * Every call below opens a new connection, so four calls in a row are answered by both
 * processes, twice each; caches are warmed on both before each change. Changes are made through
 * the HTTP API on these processes, or by this test process straight in the database (a third
 * process, like an admin host).
 */
let server: TestServer;
let tenant: TestTenant;
let deviceToken: string;

type Answer = { status: number; body: any };

/** One call on a connection of its own (no keep-alive: the next call may land on the other process). */
function call(method: string, path: string, token?: string, body?: unknown): Promise<Answer> {
  const url = new URL(path, server.baseUrl);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method,
        agent: false,
        headers: {
          connection: "close",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload ? { "content-type": "application/json" } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** Four calls in a row (both processes, twice each): their statuses and codeNames. */
async function fourTimes(make: () => Promise<Answer>): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < 4; i++) {
    const a = await make();
    out.push(a.status >= 400 ? `${a.status} ${a.body?.codeName}` : String(a.status));
  }
  return out;
}

const ACTIVATIONS = "/api/v1/provision/activations";
const OP = "/api/v1/provision/operational";

async function activate(code: string) {
  const fingerprint = `fp-${randomUUID()}`;
  const res = await call("POST", `${ACTIVATIONS}/jwt`, undefined, { activationCode: code, fingerprint });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const token = res.body as string;
  const claims = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString());
  const kid = JSON.parse(Buffer.from(token.split(".")[0], "base64url").toString()).kid as string;
  return { token, sessionId: claims.sub as string, kid, fingerprint };
}

const renew = (s: { sessionId: string; token: string }) =>
  call("POST", `${ACTIVATIONS}/${s.sessionId}/renew`, s.token);
const checkIn = (s: { sessionId: string; token: string }) =>
  call("POST", `${ACTIVATIONS}/${s.sessionId}/check-in`, s.token);

beforeAll(async () => {
  server = await startTestServer({
    databaseUrl: inject("databaseUrl"),
    extraEnv: { WEB_CONCURRENCY: "2" },
  });
  tenant = await createTestTenant("Cross-process");
  deviceToken = await tenant.token("provision.device.*");
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

describe("issue 26: what one process (or host) changes, the next call on any process sees", () => {
  it("a lapsed subscription, then an expired entitlement: renew refuses on both processes at once", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant);
    const s = await activate(code);
    expect(await fourTimes(() => checkIn(s))).toEqual(["200", "200", "200", "200"]);
    expect(await fourTimes(() => renew(s))).toEqual(["200", "200", "200", "200"]);
    await testDb().entitlement.update({
      where: { id: entitlement.id },
      data: { subscriptionStatus: "Lapsed" },
    });
    expect(await fourTimes(() => renew(s))).toEqual(Array(4).fill("403 license.subscription_lapsed"));
    await testDb().entitlement.update({
      where: { id: entitlement.id },
      data: { subscriptionStatus: "Active", expirationDateTime: new Date(Date.now() - 2 * 86_400_000) },
    });
    expect(await fourTimes(() => renew(s))).toEqual(Array(4).fill("403 license.expired"));
  });

  it("a device blocked through one process: its session's check-in is refused by both", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant);
    const s = await activate(code);
    expect(await fourTimes(() => checkIn(s))).toEqual(["200", "200", "200", "200"]);
    const blocked = await call("POST", `${OP}/entitlements/${entitlement.id}/devices/block`, deviceToken, {
      fingerprint: s.fingerprint,
    });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(200);
    expect(await fourTimes(() => checkIn(s))).toEqual(Array(4).fill("409 license.no_active_session"));
  });

  it("sessions revoked through one process (device reset): renew is refused by both", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant);
    const s = await activate(code);
    expect(await fourTimes(() => renew(s))).toEqual(["200", "200", "200", "200"]);
    const reset = await call("POST", `${OP}/entitlements/${entitlement.id}/devices/reset`, deviceToken);
    expect(reset.status).toBe(200);
    expect(await fourTimes(() => renew(s))).toEqual(Array(4).fill("409 license.no_active_session"));
  });

  it("a rotated signing key signs the next activation on both processes", async () => {
    const rotating = await createTestTenant("Cross-process rotation");
    // Eight devices activate in all: more seats than the fixture's default five.
    const { code } = await licensedEntitlement(rotating, { claimBasedActivation: { numberOfSeats: 20 } });
    const before = await Promise.all([0, 1, 2, 3].map(() => activate(code)));
    const oldKid = before[0].kid;
    expect(before.map((s) => s.kid)).toEqual([oldKid, oldKid, oldKid, oldKid]);
    const rotated = await rotateTenantSigningKey(testDb(), rotating.tenantId);
    expect(rotated.kid).not.toBe(oldKid);
    const after: string[] = [];
    for (let i = 0; i < 4; i++) after.push((await activate(code)).kid);
    expect(after).toEqual([rotated.kid, rotated.kid, rotated.kid, rotated.kid]);
    // Tokens of the retired key keep working on both processes until they expire.
    expect(await fourTimes(() => renew(before[0]))).toEqual(["200", "200", "200", "200"]);
  });

  it("a rate-limit override lowered by another process applies on both at once: exactly the limit passes", async () => {
    const limited = await createTestTenant("Cross-process limits");
    const ctx = systemContext(testDb(), limited.tenantId, "test");
    const { code } = await licensedEntitlement(limited);
    const s = await activate(code);
    const prompt = () =>
      call("GET", `/api/v1/provision/usage/sessions/${s.sessionId}/rating-prompt`, s.token);
    await setTenantRateLimit(ctx, { name: "usage.session", limit: 1000, windowSeconds: 3600 });
    expect(await fourTimes(prompt)).toEqual(["204", "204", "204", "204"]);
    // Four counted in this window; a limit of 6 leaves two, whichever process answers.
    await setTenantRateLimit(ctx, { name: "usage.session", limit: 6, windowSeconds: 3600 });
    expect(await fourTimes(prompt)).toEqual([
      "204",
      "204",
      "429 request.rate_limited",
      "429 request.rate_limited",
    ]);
  });
});
