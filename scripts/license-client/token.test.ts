// The reference client's offline token check (scripts/license-client/token.ts) and `verify` with
// the server unreachable, against tokens signed here with the claims the service issues.
import { generateKeyPairSync, randomUUID, type KeyObject } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { SignJWT, type JSONWebKeySet, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyStored } from "./commands.ts";
import { ClientError, EXIT } from "./errors.ts";
import { writeState } from "./state.ts";
import { sha256Hex, verifyLicenseToken } from "./token.ts";

const tenantId = randomUUID();
let privateKey: KeyObject;
let jwks: JSONWebKeySet;
let dir: string;

function token(
  overrides: {
    aud?: string;
    iss?: string;
    tid?: string;
    exp?: number;
    fingerprint?: string;
    key?: KeyObject;
  } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    ent: randomUUID(),
    tid: overrides.tid ?? tenantId,
    dev_fp: sha256Hex(overrides.fingerprint ?? "fp-1"),
    lic_state: "Active",
    grace_exp: now + 86_400,
    floating: false,
    products: [],
    features: {},
  })
    .setProtectedHeader({ alg: "RS256", kid: "k1", typ: "JWT" })
    .setIssuer(overrides.iss ?? `urn:licensing:tenant:${tenantId}`)
    .setAudience(overrides.aud ?? "license")
    .setSubject(randomUUID())
    .setIssuedAt(now - 10)
    .setExpirationTime(overrides.exp ?? now + 3600)
    .setJti(randomUUID())
    .sign(overrides.key ?? privateKey);
}

async function rejection(promise: Promise<unknown>): Promise<ClientError> {
  try {
    await promise;
  } catch (error) {
    return error as ClientError;
  }
  throw new Error("expected a rejection");
}

describe("license client: offline license token verification", () => {
  beforeAll(async () => {
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    privateKey = pair.privateKey;
    jwks = {
      keys: [{ ...(pair.publicKey.export({ format: "jwk" }) as JWK), kid: "k1", alg: "RS256", use: "sig" }],
    };
    dir = await mkdtemp(path.join(tmpdir(), "license-client-unit-"));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("accepts a token of this tenant for this device", async () => {
    const claims = await verifyLicenseToken(await token(), jwks, { fingerprint: "fp-1" });
    expect(claims).toMatchObject({ tid: tenantId, dev_fp: sha256Hex("fp-1"), lic_state: "Active" });
  });

  it("refuses another audience, an expired token, another device, a tid that is not the issuer's, and another signer", async () => {
    const expired = Math.floor(Date.now() / 1000) - 60;
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const cases: [string, () => Promise<unknown>][] = [
      ["audience", async () => verifyLicenseToken(await token({ aud: "consumer" }), jwks)],
      ["expired", async () => verifyLicenseToken(await token({ exp: expired }), jwks)],
      ["device", async () => verifyLicenseToken(await token(), jwks, { fingerprint: "fp-2" })],
      ["tid", async () => verifyLicenseToken(await token({ tid: randomUUID() }), jwks)],
      ["signer", async () => verifyLicenseToken(await token({ key: other }), jwks)],
      ["issuer", async () => verifyLicenseToken(await token({ iss: "https://elsewhere.example" }), jwks)],
    ];
    for (const [name, attempt] of cases) {
      expect((await rejection(attempt())).exitCode, name).toBe(EXIT.verificationFailed);
    }
    expect((await rejection(cases[1][1]())).message).toMatch(/expired/);
  });

  it("verify works from the state file alone while the server cannot be reached", async () => {
    const stateFile = path.join(dir, "state.json");
    const stored = await token();
    await writeState(stateFile, {
      url: "http://127.0.0.1:9",
      tenantId,
      sessionId: randomUUID(),
      token: stored,
      jwks,
      jwksFetchedAt: new Date().toISOString(),
    });
    expect(await verifyStored({ stateFile, fingerprint: "fp-1" })).toMatchObject({
      valid: true,
      deviceChecked: true,
      tenantId,
    });
  });
});
