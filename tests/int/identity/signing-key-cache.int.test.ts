import { generateKeyPairSync, randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { importJWK, jwtVerify, SignJWT } from "jose";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestTenant, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { activated, claimsOf, licensedEntitlement, sessionCall } from "../../helpers/runtime.ts";
import { PrismaClient } from "../../../server/db/generated/client.ts";
import { rotateTenantSigningKey } from "../../../server/domain/identity/rotate-tenant-signing-key.ts";
import {
  licenseIssuer,
  signLicenseToken,
  verificationCacheSize,
  verifyLicenseToken,
} from "../../../server/domain/licensing/tokens/license-token.ts";

const kidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split(".")[0], "base64url").toString("utf8")) as { kid: string }).kid;

async function verifiesWithJwks(tenantId: string, token: string) {
  const jwks = (await request("GET", `/api/v1/provision/tenants/${tenantId}/jwks.json`)).body.keys as {
    kid: string;
  }[];
  const jwk = jwks.find((k) => k.kid === kidOf(token));
  expect(jwk, "the token's kid is published").toBeTruthy();
  await jwtVerify(token, await importJWK(jwk!, "RS256"), { audience: "license" });
}

describe("key rotation reaches a web process that cached the old key (docs/architecture.md section 11)", () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant("Rotation reach");
  });

  it("after a rotation the running server, which holds the old key unsealed, signs renewals and activations with the new kid at once", async () => {
    const { code } = await licensedEntitlement(tenant);
    const first = await activated({ activationCode: code, fingerprint: "rotation-a" });
    const oldKid = kidOf(first.token);
    // The server now holds the old key unsealed: a renewal signs with it without unsealing it again.
    const renewed = await sessionCall("renew", first.sessionId, first.token);
    expect(renewed.status, renewed.text).toBe(200);
    expect(kidOf(renewed.body.token)).toBe(oldKid);

    const rotated = await rotateTenantSigningKey(testDb(), tenant.tenantId);
    expect(rotated.kid).not.toBe(oldKid);

    const afterRotation = await sessionCall("renew", first.sessionId, first.token);
    expect(afterRotation.status, afterRotation.text).toBe(200);
    expect(kidOf(afterRotation.body.token)).toBe(rotated.kid);
    await verifiesWithJwks(tenant.tenantId, afterRotation.body.token);

    // Activation reads the active kid in its own query: the new key at once.
    const second = await activated({ activationCode: code, fingerprint: "rotation-b" });
    expect(kidOf(second.token)).toBe(rotated.kid);
    await verifiesWithJwks(tenant.tenantId, second.token);
    // Tokens of both keys keep authenticating session calls (the old one until its lease ends).
    expect((await sessionCall("check-in", first.sessionId, first.token)).status).toBe(200);
    expect((await sessionCall("check-in", second.sessionId, second.token)).status).toBe(200);
  });
});

/** A Prisma client on its own pool that counts the statements reading SigningKey. */
function countingDb() {
  const counter = { signingKeyReads: 0 };
  const pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 4 });
  pool.on("connect", (client) => {
    const original = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const first = args[0] as string | { text?: string };
      const text = typeof first === "string" ? first : (first?.text ?? "");
      if (/FROM "public"\."SigningKey"|FROM "SigningKey"/.test(text)) counter.signingKeyReads++;
      return original(...args);
    };
  });
  const db = new PrismaClient({ adapter: new PrismaPg(pool) });
  return { db, counter, close: () => db.$disconnect().then(() => pool.end()) };
}

describe("issue 11 item 12: unknown kid values cost a database query each and grow the key cache", () => {
  let tenant: TestTenant;
  let counting: ReturnType<typeof countingDb>;
  const { privateKey: foreignKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const forged = (tid: string, kid: string) =>
    new SignJWT({ ent: randomUUID(), tid, dev_fp: "x" })
      .setProtectedHeader({ alg: "RS256", kid })
      .setIssuer(licenseIssuer(tid))
      .setAudience("license")
      .setSubject(randomUUID())
      .setIssuedAt()
      .setExpirationTime("1h")
      .setJti(randomUUID())
      .sign(foreignKey);

  beforeAll(async () => {
    tenant = await createTestTenant("Unknown kid");
    counting = countingDb();
  });
  afterAll(async () => {
    await counting?.close();
  });

  it("200 tokens with unknown kids of one tenant: at most a couple of key reads, no cache growth, and genuine tokens still verify", async () => {
    const tokens = await Promise.all(
      Array.from({ length: 200 }, () => forged(tenant.tenantId, `lk_${randomUUID()}`)),
    );
    const results = await Promise.all(tokens.map((t) => verifyLicenseToken(counting.db, t)));
    expect(results.every((r) => r === null)).toBe(true);
    // One read to learn the tenant's keys and one (coalesced, at most one per second) for the unknown kids.
    expect(counting.counter.signingKeyReads).toBeLessThanOrEqual(2);
    expect(verificationCacheSize()).toBe(1);

    const genuine = await signLicenseToken(counting.db, {
      sub: randomUUID(),
      ent: randomUUID(),
      tid: tenant.tenantId,
      dev_fp: "genuine",
      lic_state: "Active",
      floating: false,
      products: [],
      features: {},
      expiresAt: new Date(Date.now() + 3_600_000),
      graceExpiresAt: new Date(Date.now() + 7_200_000),
    });
    const reads = counting.counter.signingKeyReads;
    expect(await verifyLicenseToken(counting.db, genuine)).toMatchObject({ tid: tenant.tenantId });
    expect(counting.counter.signingKeyReads).toBe(reads);
    expect(claimsOf(genuine).tid).toBe(tenant.tenantId);
  });

  it("tokens naming tenants that do not exist leave nothing in the cache", async () => {
    const before = verificationCacheSize();
    const tokens = await Promise.all(
      Array.from({ length: 100 }, () => forged(randomUUID(), `lk_${randomUUID()}`)),
    );
    const results = await Promise.all(tokens.map((t) => verifyLicenseToken(counting.db, t)));
    expect(results.every((r) => r === null)).toBe(true);
    expect(verificationCacheSize()).toBe(before);
  });
});
