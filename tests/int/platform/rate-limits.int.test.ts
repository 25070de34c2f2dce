import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createTestTenant,
  expectProblem,
  request,
  testDb,
  tokenRequest,
  type ApiResponse,
  type TestTenant,
} from "../../helpers/api.ts";
import { activateJwt, claimsOf, licensedEntitlement } from "../../helpers/runtime.ts";
import { uiSignInAttempt } from "../../helpers/ui-session.ts";
import { consume, meteredLicense, record, USAGE } from "../../helpers/metering.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { createClient } from "../../../server/domain/identity/oauth-clients.ts";
import {
  listTenantRateLimits,
  setTenantRateLimit,
} from "../../../server/domain/rate-limits/rate-limit-overrides.ts";
import { sweepRateLimitCounters } from "../../../server/domain/rate-limits/sweep-rate-limit-counters.ts";
import {
  DEFAULT_RATE_LIMITS,
  parseRateLimitSetting,
  type RateLimitName,
} from "../../../server/domain/rate-limits/rate-limit-policies.ts";

/**
 * docs/security.md "Rate limits", over HTTP. The shared test server's service-wide limits are out
 * of reach (tests/helpers/test-server.ts), so each test lowers one limit for its own tenant, which
 * also proves that limits are configurable per tenant. Requests carry a pinned test clock 5 s into
 * a minute, so a fixed window never ends in the middle of a test.
 */

const minute = Math.floor(Date.now() / 60_000) * 60_000;
const clockAt = (offsetMs: number) => ({ "x-test-clock": new Date(minute + offsetMs).toISOString() });
const inWindow = clockAt(5_000);

const limit = (tenant: TestTenant, name: RateLimitName, max: number, windowSeconds = 60) =>
  setTenantRateLimit(systemContext(testDb(), tenant.tenantId, "test"), {
    name,
    limit: max,
    windowSeconds,
  });

function expectRateLimited(res: ApiResponse, name: RateLimitName, retryAfter: number) {
  expectProblem(res, 429, "request.rate_limited");
  expect(res.body.code).toBe(1040);
  expect(res.body.detail).toContain(name);
  expect(res.headers.get("retry-after")).toBe(String(retryAfter));
  expect(res.headers.get("ratelimit-policy")).toContain(`"${name}";q=`);
  expect(res.headers.get("ratelimit")).toContain(`"${name}";r=0;t=${retryAfter}`);
}

describe("rate limits", () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant("Rate limits");
  });

  it("activation per code: past the tenant's limit 429 with Retry-After and RateLimit headers; every spelling of the code counts; another code and the next window pass", async () => {
    await limit(tenant, "activation.code", 3);
    const { code } = await licensedEntitlement(tenant, { claimBasedActivation: { numberOfSeats: 10 } });
    const { code: other } = await licensedEntitlement(tenant, {
      claimBasedActivation: { numberOfSeats: 10 },
    });
    const spellings = [code, code.toLowerCase(), code.replaceAll("-", "")];
    for (const [i, spelling] of spellings.entries()) {
      const res = await activateJwt({ activationCode: spelling, fingerprint: randomUUID() }, inWindow);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toContain('"activation.code";q=3;w=60');
      expect(res.headers.get("ratelimit")).toContain(`"activation.code";r=${2 - i};t=55`);
      expect(res.headers.get("ratelimit")).toMatch(/"activation\.ip";r=\d+;t=\d+/);
    }
    const refused = await activateJwt({ activationCode: code, fingerprint: randomUUID() }, inWindow);
    expectRateLimited(refused, "activation.code", 55);
    expect((await activateJwt({ activationCode: other, fingerprint: randomUUID() }, inWindow)).status).toBe(
      200,
    );
    const nextWindow = await activateJwt(
      { activationCode: code, fingerprint: randomUUID() },
      clockAt(61_000),
    );
    expect(nextWindow.status, nextWindow.text).toBe(200);
  });

  it("activation per caller address: past the tenant's limit 429 whichever code; another tenant's activations from the same address have their own budget", async () => {
    const strict = await createTestTenant("Rate limits per address");
    await limit(strict, "activation.ip", 2);
    const codes = await Promise.all([1, 2, 3].map(() => licensedEntitlement(strict)));
    for (const { code } of codes.slice(0, 2))
      expect((await activateJwt({ activationCode: code, fingerprint: randomUUID() }, inWindow)).status).toBe(
        200,
      );
    const refused = await activateJwt({ activationCode: codes[2].code, fingerprint: randomUUID() }, inWindow);
    expectRateLimited(refused, "activation.ip", 55);
    // Nothing was made for the refused request.
    const sessions = await testDb().licenseSession.count({ where: { tenantId: strict.tenantId } });
    expect(sessions).toBe(2);
    const { code: mine } = await licensedEntitlement(tenant);
    expect((await activateJwt({ activationCode: mine, fingerprint: randomUUID() }, inWindow)).status).toBe(
      200,
    );
  });

  it("token endpoint per client: past the tenant's limit 429 problem+json (with OAuth's error member); another client of the tenant is not affected", async () => {
    const capped = await createTestTenant("Rate limits token");
    await limit(capped, "token.client", 2);
    const ctx = systemContext(testDb(), capped.tenantId, "test");
    const made = await createClient(ctx, { name: "limited", kind: "admin", scopes: ["provision.tag.read"] });
    const other = await createClient(ctx, { name: "other", kind: "admin", scopes: ["provision.tag.read"] });
    const form = (c: typeof made) => ({
      grant_type: "client_credentials",
      client_id: c.client.clientId,
      client_secret: c.clientSecret,
    });
    for (let i = 0; i < 2; i++) {
      const res = await tokenRequest(form(made), inWindow);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toContain('"token.client";q=2;w=60');
    }
    const refused = await tokenRequest(form(made), inWindow);
    expectRateLimited(refused, "token.client", 55);
    expect(refused.body.error).toBe("rate_limited");
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect((await tokenRequest(form(other), inWindow)).status).toBe(200);
  });

  it("token endpoint failed secrets back off: after the limit of wrong secrets even the right one is refused until the window ends", async () => {
    const guarded = await createTestTenant("Rate limits back-off");
    await limit(guarded, "token.failed_secret", 3, 300);
    const { client, clientSecret } = await createClient(systemContext(testDb(), guarded.tenantId, "test"), {
      name: "guarded",
      kind: "admin",
      scopes: ["provision.tag.read"],
    });
    // A five-minute window starts on a multiple of five minutes.
    const fiveMinutes = Math.floor(Date.now() / 300_000) * 300_000;
    const at = (offsetMs: number) => ({ "x-test-clock": new Date(fiveMinutes + offsetMs).toISOString() });
    const attempt = (secret: string, clock = at(5_000)) =>
      tokenRequest(
        { grant_type: "client_credentials", client_id: client.clientId, client_secret: secret },
        clock,
      );
    for (let i = 0; i < 3; i++) {
      const res = await attempt(`wrong-${i}`);
      expect(res.status, res.text).toBe(401);
      expect(res.body.error).toBe("invalid_client");
      expect(res.headers.get("ratelimit")).toContain(`"token.failed_secret";r=${2 - i};t=295`);
    }
    expectRateLimited(await attempt(clientSecret), "token.failed_secret", 295);
    // The window is five minutes: a minute later still refused, after it the right secret works.
    expect((await attempt(clientSecret, at(65_000))).status).toBe(429);
    const after = await attempt(clientSecret, at(301_000));
    expect(after.status, after.text).toBe(200);
  });

  it("sign-in forms: failed passwords back off per email and address (service default 10 per 5 minutes); another email is not affected; after the window the right password works", async () => {
    const staff = await createTestTenant("Rate limits sign-in");
    const other = await createTestTenant("Rate limits sign-in, other");
    const policy = DEFAULT_RATE_LIMITS["signin.failed_password"];
    expect(policy).toEqual({ limit: 10, windowSeconds: 300 });
    const fiveMinutes = Math.floor(Date.now() / 300_000) * 300_000;
    const at = (offsetMs: number) => ({ "x-test-clock": new Date(fiveMinutes + offsetMs).toISOString() });
    const attempt = (email: string, password: string, clock = at(5_000)) =>
      uiSignInAttempt("staff", { email, password }, { headers: clock });
    for (let i = 0; i < policy.limit; i++) {
      const wrong = await attempt(staff.adminEmail, `wrong-${i}`);
      expect(wrong.error).toBe("CredentialsSignin");
    }
    // The right password, from the same address within the window: refused, saying how long to wait.
    const refused = await attempt(staff.adminEmail, staff.adminPassword);
    expect(refused.error).toBe("rate-limited:295");
    expect(refused.setCookies.some((line) => /session-token=/.test(line))).toBe(false);
    // The email's spelling does not matter; another account from the same address is not affected.
    expect((await attempt(staff.adminEmail.toUpperCase(), staff.adminPassword, at(60_000))).error).toBe(
      "rate-limited:240",
    );
    expect((await attempt(other.adminEmail, other.adminPassword)).error).toBeNull();
    expect((await attempt(staff.adminEmail, staff.adminPassword, at(301_000))).error).toBeNull();
  });

  it("usage calls per session: past the tenant's limit 429; another session of the license is not affected", async () => {
    const metered = await createTestTenant("Rate limits usage");
    await limit(metered, "usage.session", 2);
    const { code } = await licensedEntitlement(metered);
    const session = async () => {
      const res = await activateJwt({ activationCode: code, fingerprint: randomUUID() });
      expect(res.status, res.text).toBe(200);
      return { token: res.body as string, sessionId: claimsOf(res.body).sub as string };
    };
    const [a, b] = [await session(), await session()];
    const read = (s: { token: string; sessionId: string }) =>
      request("GET", `${USAGE}/sessions/${s.sessionId}/rating-prompt`, { token: s.token, headers: inWindow });
    for (let i = 0; i < 2; i++) {
      const res = await read(a);
      expect(res.status, res.text).toBeLessThan(300);
      expect(res.headers.get("ratelimit")).toContain(`"usage.session";r=${1 - i};t=55`);
    }
    expectRateLimited(await read(a), "usage.session", 55);
    const consume = await request("POST", `${USAGE}/consume/${a.sessionId}/anything?amount=1`, {
      token: a.token,
      headers: inWindow,
    });
    expectRateLimited(consume, "usage.session", 55);
    expect((await read(b)).status).toBeLessThan(300);
  });

  it("consume and usage upload count in their own statement: within the limit they record and say what remains; past it 429 and nothing is recorded", async () => {
    const metered = await createTestTenant("Rate limits folded");
    await limit(metered, "usage.session", 4);
    const license = await meteredLicense(metered, {
      metrics: [{ metricName: "api-calls", metered: { consumptionPeriod: "month" } }],
      features: [{ metricName: "api-calls", value: "1000" }],
    });
    const s = await license.session();
    const upload = (records: unknown[]) =>
      request("POST", `${USAGE}/sessions/${s.sessionId}/transactions`, {
        token: s.token,
        body: records,
        headers: inWindow,
      });
    const apiCall = () => record({ eventName: "api-calls", eventData: { amount: 1 } });
    // The first consume of a period takes the locking path; the second is the one-statement path.
    for (let i = 0; i < 2; i++) {
      const res = await consume(s, "api-calls", 1, { headers: inWindow });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ allowed: true, committed: true, usage: i + 1 });
      expect(res.headers.get("ratelimit")).toContain(`"usage.session";r=${3 - i};t=55`);
    }
    const uploaded = await upload([apiCall(), apiCall()]);
    expect(uploaded.status, uploaded.text).toBe(200);
    expect(uploaded.body).toMatchObject({ counted: 2 });
    expect(uploaded.headers.get("ratelimit")).toContain(`"usage.session";r=1;t=55`);
    expect((await consume(s, "api-calls", 1, { headers: inWindow })).status).toBe(200);

    expectRateLimited(await consume(s, "api-calls", 1, { headers: inWindow }), "usage.session", 55);
    expectRateLimited(await upload([apiCall()]), "usage.session", 55);
    const entitlementId = license.entitlement.id;
    expect(await testDb().consumeEntry.count({ where: { tenantId: metered.tenantId, entitlementId } })).toBe(
      3,
    );
    expect(await testDb().usageRecord.count({ where: { tenantId: metered.tenantId, entitlementId } })).toBe(
      2,
    );
    const [period] = await testDb().meterPeriod.findMany({
      where: { tenantId: metered.tenantId, entitlementId },
    });
    expect(period.usage.toNumber()).toBe(5);
    // The next window counts afresh.
    expect((await consume(s, "api-calls", 1, { headers: clockAt(65_000) })).status).toBe(200);
  });

  it("parallel requests cannot slip past a limit: exactly the limit passes", async () => {
    const racing = await createTestTenant("Rate limits race");
    await limit(racing, "activation.code", 5);
    const { code } = await licensedEntitlement(racing, { claimBasedActivation: { numberOfSeats: 40 } });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        activateJwt({ activationCode: code, fingerprint: randomUUID() }, inWindow),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(5);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(15);
  });

  it("limits are the configured defaults until a tenant overrides one; the setting is validated; the sweep drops ended windows only", async () => {
    const fresh = await createTestTenant("Rate limits listing");
    const ctx = systemContext(testDb(), fresh.tenantId, "test");
    const before = await listTenantRateLimits(ctx);
    expect(before.every((l) => !l.overridden)).toBe(true);
    await limit(fresh, "usage.session", 7, 10);
    const after = await listTenantRateLimits(ctx);
    expect(after.find((l) => l.name === "usage.session")).toEqual({
      name: "usage.session",
      limit: 7,
      windowSeconds: 10,
      overridden: true,
    });
    await expect(limit(fresh, "usage.session", 0)).rejects.toMatchObject({
      codeName: "license.validation_error",
    });
    await expect(
      setTenantRateLimit(ctx, { name: "nonsense", limit: 1, windowSeconds: 1 }),
    ).rejects.toMatchObject({ codeName: "license.validation_error" });
    // Sign-in is counted before any tenant is known: a tenant's value could never apply.
    await expect(limit(fresh, "signin.failed_password", 100)).rejects.toMatchObject({
      codeName: "license.validation_error",
    });
    expect(DEFAULT_RATE_LIMITS["token.failed_secret"]).toEqual({ limit: 10, windowSeconds: 300 });
    expect(parseRateLimitSetting("activation.ip=5/60, usage.session=9/1")).toEqual({
      "activation.ip": { limit: 5, windowSeconds: 60 },
      "usage.session": { limit: 9, windowSeconds: 1 },
    });
    expect(() => parseRateLimitSetting("activation.nope=5/60")).toThrow(/RATE_LIMITS/);

    const bucket = `usage.session:${fresh.tenantId}:sweep-${randomUUID()}`;
    const ended = new Date(minute - 120_000);
    const live = new Date(minute);
    await testDb().rateLimitCounter.createMany({
      data: [
        { bucket, windowStart: ended, hits: 1, limit: 1, windowSeconds: 60 },
        { bucket, windowStart: live, hits: 1, limit: 1, windowSeconds: 60 },
      ],
    });
    await sweepRateLimitCounters(testDb(), new Date(minute + 30_000));
    const left = await testDb().rateLimitCounter.findMany({ where: { bucket } });
    expect(left.map((r) => r.windowStart.getTime())).toEqual([live.getTime()]);
  });

  it("the OpenAPI document lists 429 request.rate_limited and the limits on each limited route", async () => {
    const doc = (await request("GET", "/api/v1/openapi.json")).body;
    for (const [path, names] of [
      ["/api/v1/provision/activations/jwt", ["activation.ip", "activation.code"]],
      ["/api/v1/provision/activations/license", ["activation.ip", "activation.code"]],
      ["/api/v1/provision/usage/consume/{sessionId}/{metric}", ["usage.session"]],
    ] as const) {
      const op = doc.paths[path].post ?? doc.paths[path].get;
      expect(op["x-rate-limits"]).toEqual(names);
      expect(op.responses["429"]["x-problem-codes"][0].codeName).toBe("request.rate_limited");
    }
  });
});
