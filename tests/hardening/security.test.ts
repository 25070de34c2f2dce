import { createHash, createHmac, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { expectProblem, request, tokenRequest, type TestTenant, createTestTenant } from "../helpers/api.ts";
import { activateJwt, licensedEntitlement } from "../helpers/runtime.ts";
import { ALL_PROVISION_SCOPES, PROVISION, consumerOf } from "../helpers/tenant-world.ts";
import { CANARY, leaksIn } from "./log-scan.ts";

/**
 * docs/security.md "Suites": token confusion (every credential kind on every other kind's routes,
 * `alg: none`, an unknown `kid`, HMAC signed with the public key, claims of another tenant), SSRF
 * through redirects, and the log scan of what this file sent.
 */

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
const partsOf = (jwt: string) => {
  const [h, p, s] = jwt.split(".");
  return {
    header: JSON.parse(Buffer.from(h, "base64url").toString()) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(p, "base64url").toString()) as Record<string, unknown>,
    signature: s,
  };
};

/** Forgeries of a real token: `alg: none` (with and without a signature), unknown kid, HS256 with a public key, altered claims. */
function forgeries(jwt: string, publicKeyPem: string, claims: Record<string, unknown> = {}) {
  const { header, payload, signature } = partsOf(jwt);
  const hs = (h: object, p: object) => {
    const input = `${b64(h)}.${b64(p)}`;
    return `${input}.${createHmac("sha256", publicKeyPem).update(input).digest("base64url")}`;
  };
  return {
    "alg none, no signature": `${b64({ ...header, alg: "none" })}.${b64(payload)}.`,
    "alg none, original signature": `${b64({ ...header, alg: "none" })}.${b64(payload)}.${signature}`,
    "alg NONE": `${b64({ ...header, alg: "NONE" })}.${b64(payload)}.`,
    "unknown kid": `${b64({ ...header, kid: `kid-${randomUUID()}` })}.${b64(payload)}.${signature}`,
    "no kid": `${b64({ alg: header.alg, typ: header.typ })}.${b64(payload)}.${signature}`,
    "HS256 keyed with the public key": hs({ ...header, alg: "HS256" }, payload),
    "altered claims, original signature": `${b64(header)}.${b64({ ...payload, ...claims })}.${signature}`,
    "expired by its own claims": `${b64(header)}.${b64({ ...payload, exp: 1 })}.${signature}`,
  };
}

describe("token confusion", () => {
  let owner: TestTenant;
  let stranger: TestTenant;
  let admin: string;
  let strangerAdmin: string;
  let consumer: string;
  let license: { token: string; sessionId: string };
  let strangerLicense: { token: string; sessionId: string };
  let jwksPem: string;

  beforeAll(async () => {
    owner = await createTestTenant("Confusion owner");
    stranger = await createTestTenant("Confusion stranger");
    admin = await owner.token(ALL_PROVISION_SCOPES);
    strangerAdmin = await stranger.token(ALL_PROVISION_SCOPES);
    consumer = (await consumerOf(owner, admin)).token;
    const session = async (t: TestTenant) => {
      const { code } = await licensedEntitlement(t);
      const res = await activateJwt({ activationCode: code, fingerprint: randomUUID() });
      expect(res.status, res.text).toBe(200);
      return { token: res.body as string, sessionId: partsOf(res.body).payload.sub as string };
    };
    license = await session(owner);
    strangerLicense = await session(stranger);
    const jwks = (await request("GET", `${PROVISION}tenants/${owner.tenantId}/jwks.json`)).body;
    const { createPublicKey } = await import("node:crypto");
    jwksPem = createPublicKey({ key: jwks.keys[0], format: "jwk" }).export({
      type: "spki",
      format: "pem",
    }) as string;
  });

  const adminRoute = () => `${PROVISION}admin/tags`;
  const sessionRoute = () => `${PROVISION}activations/${license.sessionId}/check-in`;
  const consumerRoute = () => `${PROVISION}consumer/me/activation-codes`;

  it("a license token on admin and consumer routes, an admin token on session and consumer routes, a consumer token on admin and session routes: 401", async () => {
    expectProblem(await request("GET", adminRoute(), { token: license.token }), 401, "auth.unauthenticated");
    expectProblem(
      await request("GET", consumerRoute(), { token: license.token }),
      401,
      "auth.unauthenticated",
    );
    expectProblem(
      await request("POST", sessionRoute(), { token: admin }),
      401,
      "license.session_token_rejected",
    );
    expectProblem(await request("GET", consumerRoute(), { token: admin }), 401, "auth.unauthenticated");
    expectProblem(await request("GET", adminRoute(), { token: consumer }), 401, "auth.unauthenticated");
    expectProblem(
      await request("POST", sessionRoute(), { token: consumer }),
      401,
      "license.session_token_rejected",
    );
  });

  it("another tenant's tokens: its license token naming our session 401, its admin token on our ids 404", async () => {
    expectProblem(
      await request("POST", sessionRoute(), { token: strangerLicense.token }),
      401,
      "license.session_token_rejected",
    );
    const tag = (
      await request("POST", adminRoute(), {
        token: admin,
        body: { name: `t-${randomUUID()}`, scope: "Product" },
      })
    ).body;
    expectProblem(
      await request("GET", `${adminRoute()}/${tag.id}`, { token: strangerAdmin }),
      404,
      "license.not_found",
    );
  });

  it("forged license tokens (alg none, unknown kid, HS256 with the public key, another tenant's claims on its signature) are rejected on session routes", async () => {
    const forged = forgeries(license.token, jwksPem, {
      tid: stranger.tenantId,
      sub: strangerLicense.sessionId,
    });
    for (const [name, token] of Object.entries(forged)) {
      const res = await request("POST", sessionRoute(), { token });
      expect(res.status, `${name}: ${res.text}`).toBe(401);
      expect(res.body.codeName, name).toBe("license.session_token_rejected");
    }
    // The genuine token still works: the refusals above are the forgeries'.
    expect((await request("POST", sessionRoute(), { token: license.token })).status).toBe(200);
  });

  it("forged access tokens (alg none, unknown kid, HS256, another tenant's tid on our signature) are rejected on admin and consumer routes", async () => {
    const forgedAdmin = forgeries(admin, jwksPem, { tid: stranger.tenantId });
    const forgedConsumer = forgeries(consumer, jwksPem, { tid: stranger.tenantId });
    for (const [name, token] of Object.entries(forgedAdmin)) {
      const res = await request("GET", adminRoute(), { token });
      expect(res.status, `admin ${name}: ${res.text}`).toBe(401);
    }
    for (const [name, token] of Object.entries(forgedConsumer)) {
      const res = await request("GET", consumerRoute(), { token });
      expect(res.status, `consumer ${name}: ${res.text}`).toBe(401);
    }
    expect((await request("GET", adminRoute(), { token: admin })).status).toBe(200);
  });
});

describe("SSRF through redirects", () => {
  let internal: Server;
  let hits = 0;
  let redirector: Server;

  beforeAll(async () => {
    // A "private" receiver the redirect points at, and a receiver that answers 3xx towards it.
    internal = createServer((_req, res) => {
      hits++;
      res.end("ok");
    });
    await new Promise<void>((r) => internal.listen(0, "127.0.0.1", r));
    const target = `http://127.0.0.1:${(internal.address() as AddressInfo).port}/metadata`;
    redirector = createServer((_req, res) => {
      res.writeHead(302, { location: target }).end();
    });
    await new Promise<void>((r) => redirector.listen(0, "127.0.0.1", r));
  });

  it("a receiver answering 302 towards another address fails verification; the redirect is never followed", async () => {
    const tenant = await createTestTenant("SSRF redirect");
    const token = await tenant.token("provision.webhook.*");
    // Test servers allow loopback receivers (WEBHOOKS_ALLOW_PRIVATE_URLS), so the redirect itself is under test.
    const url = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/hook`;
    const created = await request("POST", "/api/v1/webhooks/subscriptions", {
      token,
      body: { displayName: "Redirect", eventTypePatterns: ["*"], url, secret: `whsec_${"A".repeat(32)}` },
    });
    expect(created.status, created.text).toBe(201);
    const verified = await request("POST", `/api/v1/webhooks/subscriptions/${created.body.id}/verify`, {
      token,
    });
    expect(verified.status, verified.text).toBeLessThan(500);
    expect(verified.body.state).not.toBe("Active");
    expect(hits).toBe(0);
  });
});

describe("log scan", () => {
  it("nothing this file sends as a credential, token, code or fingerprint reaches a log line, on success or refusal", async () => {
    const tenant = await createTestTenant("Log scan");
    const fingerprint = `${CANARY}-fp-${randomUUID()}`;
    const { code } = await licensedEntitlement(tenant);
    const ok = await activateJwt({ activationCode: code, fingerprint });
    expect(ok.status, ok.text).toBe(200);
    const issued = ok.body as string;
    // Refusals log too: an unknown code, a malformed body, wrong secrets and passwords, garbage tokens.
    await activateJwt({ activationCode: `${CANARY}-code`, fingerprint });
    await activateJwt({ activationCode: code, fingerprint, deviceName: { [CANARY]: CANARY } });
    await tokenRequest({
      grant_type: "client_credentials",
      client_id: `${CANARY}-id`,
      client_secret: `${CANARY}-secret`,
    });
    await tokenRequest({
      grant_type: "password",
      username: `${CANARY}@example.com`,
      password: `${CANARY}-pw`,
    });
    await request("GET", `${PROVISION}admin/tags`, { token: `${CANARY}.${CANARY}.${CANARY}` });
    await request("POST", `${PROVISION}activations/${randomUUID()}/renew`, {
      token: issued.slice(0, -4) + "AAAA",
    });
    await request("POST", `${PROVISION}activations/${partsOf(issued).payload.sub as string}/renew`, {
      token: issued,
    });
    // Logs are written asynchronously: give the server a moment to flush its lines.
    await new Promise((r) => setTimeout(r, 1500));
    const log = readFileSync(inject("logFile"), "utf8");
    expect(log).toMatch(/"msg":"request"/);
    const fpHash = createHash("sha256").update(fingerprint).digest("hex");
    expect(leaksIn(log, [issued, issued.split(".")[2], code, fpHash])).toEqual([]);
  });
});
