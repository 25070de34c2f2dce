import { createPrivateKey, createPublicKey, sign as cryptoSign, verify as cryptoVerify } from "node:crypto";
import { importJWK, jwtVerify, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { open } from "../../../server/crypto/secret-box.ts";
import { rotateTenantSigningKey } from "../../../server/domain/identity/rotate-tenant-signing-key.ts";

const jwksPath = (tenantId: string) => `/api/v1/provision/tenants/${tenantId}/jwks.json`;

/** Signs with the tenant's stored private key, as the licensing service does. */
async function signWith(tenantId: string, kid: string) {
  const row = await testDb().signingKey.findFirstOrThrow({ where: { tenantId, kid } });
  const key = await importJWK(JSON.parse(open(row.privateKeyEncrypted)), "RS256");
  return new SignJWT({ dev_fp: "x" })
    .setProtectedHeader({ alg: "RS256", kid })
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(key);
}

describe("tenant JWKS and signing-key rotation", () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant("Jwks");
  });

  it("publishes the tenant's public signing key, anonymously, with no private member", async () => {
    const res = await request("GET", jwksPath(tenant.tenantId));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("max-age");
    expect(res.body.keys).toHaveLength(1);
    const [jwk] = res.body.keys;
    expect(jwk).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig", kid: expect.stringMatching(/^lk_/) });
    expect(Object.keys(jwk).sort()).toEqual(["alg", "e", "kid", "kty", "n", "use"]);
    // The published key verifies what the stored private key signs, with jose and with node:crypto.
    const token = await signWith(tenant.tenantId, jwk.kid);
    await expect(jwtVerify(token, await importJWK(jwk, "RS256"))).resolves.toBeTruthy();
    const row = await testDb().signingKey.findFirstOrThrow({
      where: { tenantId: tenant.tenantId, kid: jwk.kid },
    });
    const privateKey = createPrivateKey({ key: JSON.parse(open(row.privateKeyEncrypted)), format: "jwk" });
    const signature = cryptoSign("RSA-SHA256", Buffer.from("payload"), privateKey);
    expect(
      cryptoVerify(
        "RSA-SHA256",
        Buffer.from("payload"),
        createPublicKey({ key: jwk, format: "jwk" }),
        signature,
      ),
    ).toBe(true);
  });

  it("rotation: the new key signs, the old one stays published until its tokens have expired, then leaves", async () => {
    const before = (await request("GET", jwksPath(tenant.tenantId))).body.keys.map(
      (k: { kid: string }) => k.kid,
    );
    const oldToken = await signWith(tenant.tenantId, before[0]);
    const rotated = await rotateTenantSigningKey(testDb(), tenant.tenantId);
    const after = (await request("GET", jwksPath(tenant.tenantId))).body.keys.map(
      (k: { kid: string }) => k.kid,
    );
    expect(after).toEqual([rotated.kid, ...before]);
    const active = await testDb().signingKey.findMany({
      where: { tenantId: tenant.tenantId, status: "Active" },
    });
    expect(active.map((k) => k.kid)).toEqual([rotated.kid]);
    const jwks = (await request("GET", jwksPath(tenant.tenantId))).body.keys;
    const oldJwk = jwks.find((k: { kid: string }) => k.kid === before[0]);
    await expect(jwtVerify(oldToken, await importJWK(oldJwk, "RS256"))).resolves.toBeTruthy();

    await testDb().signingKey.updateMany({
      where: { tenantId: tenant.tenantId, kid: before[0] },
      data: { publishUntil: new Date(Date.now() - 1000) },
    });
    expect(
      (await request("GET", jwksPath(tenant.tenantId))).body.keys.map((k: { kid: string }) => k.kid),
    ).toEqual([rotated.kid]);
  });

  it("answers with an ETag: If-None-Match of the current set is a 304 without a body, and a rotation changes the tag", async () => {
    const first = await request("GET", jwksPath(tenant.tenantId));
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get("cache-control")).toBe("public, max-age=300");
    const again = await request("GET", jwksPath(tenant.tenantId), { headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    const weak = await request("GET", jwksPath(tenant.tenantId), {
      headers: { "if-none-match": `"x", W/${etag}` },
    });
    expect(weak.status).toBe(304);
    await rotateTenantSigningKey(testDb(), tenant.tenantId);
    const rotated = await request("GET", jwksPath(tenant.tenantId), { headers: { "if-none-match": etag! } });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get("etag")).not.toBe(etag);
    expect(rotated.body.keys.length).toBeGreaterThan(first.body.keys.length);
  });

  it("two rotations at once leave exactly one active key", async () => {
    await Promise.all([
      rotateTenantSigningKey(testDb(), tenant.tenantId),
      rotateTenantSigningKey(testDb(), tenant.tenantId),
    ]);
    expect(await testDb().signingKey.count({ where: { tenantId: tenant.tenantId, status: "Active" } })).toBe(
      1,
    );
  });

  it("an unknown tenant, a malformed id and another tenant's keys: 404, 404, never mixed", async () => {
    expectProblem(await request("GET", jwksPath(crypto.randomUUID())), 404, "license.not_found");
    expectProblem(await request("GET", jwksPath("not-a-uuid")), 404, "license.not_found");
    const other = await createTestTenant("Jwks other");
    const mine = (await request("GET", jwksPath(tenant.tenantId))).body.keys.map(
      (k: { kid: string }) => k.kid,
    );
    const theirs = (await request("GET", jwksPath(other.tenantId))).body.keys.map(
      (k: { kid: string }) => k.kid,
    );
    expect(theirs).toHaveLength(1);
    expect(mine.some((kid: string) => theirs.includes(kid))).toBe(false);
  });
});
