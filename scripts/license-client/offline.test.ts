// The reference client's offline pieces: the request artifact and the verification of a response
// artifact (docs/api.md "Offline activation artifacts"), with a key made here standing in for the tenant's.
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import type { JSONWebKeySet, JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { ClientError, EXIT } from "./errors.ts";
import {
  buildOfflineRequest,
  parseComponents,
  verifyOfflineResponse,
  type OfflineResponse,
} from "./offline.ts";

let privateKey: KeyObject;
let jwks: JSONWebKeySet;

const respond = (license: object, key = privateKey): OfflineResponse => {
  const signedPayload = Buffer.from(JSON.stringify(license), "utf8").toString("base64url");
  return {
    signedPayload,
    signature: sign("RSA-SHA256", Buffer.from(signedPayload), key).toString("base64"),
    kid: "k1",
  };
};

const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error as ClientError;
  }
  throw new Error("expected a failure");
};

describe("license client: offline artifacts", () => {
  beforeAll(() => {
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    privateKey = pair.privateKey;
    jwks = {
      keys: [{ ...(pair.publicKey.export({ format: "jwk" }) as JWK), kid: "k1", alg: "RS256", use: "sig" }],
    };
  });

  it("a response signed by the tenant's key verifies and decodes; its nonce must be the request's", () => {
    const request = buildOfflineRequest({ activationCode: "CODE", fingerprint: "fp" });
    const { license, kid } = verifyOfflineResponse(
      respond({ nonce: request.meta.nonce, entitlementId: "e1" }),
      jwks,
      request,
    );
    expect(kid).toBe("k1");
    expect(license).toEqual({ nonce: request.meta.nonce, entitlementId: "e1" });

    const other = buildOfflineRequest({ activationCode: "CODE", fingerprint: "fp" });
    const mismatch = failure(() =>
      verifyOfflineResponse(respond({ nonce: request.meta.nonce }), jwks, other),
    );
    expect(mismatch.exitCode).toBe(EXIT.verificationFailed);
    expect(mismatch.message).toMatch(/nonce/);
  });

  it("a changed payload, another signer or an unknown kid is refused", () => {
    const good = respond({ entitlementId: "e1" });
    const tampered = {
      ...good,
      signedPayload: Buffer.from(JSON.stringify({ entitlementId: "e2" })).toString("base64url"),
    };
    expect(failure(() => verifyOfflineResponse(tampered, jwks)).message).toMatch(/does not verify/);

    const stranger = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    expect(
      failure(() => verifyOfflineResponse(respond({ entitlementId: "e1" }, stranger), jwks)).exitCode,
    ).toBe(EXIT.verificationFailed);
    expect(failure(() => verifyOfflineResponse({ ...good, kid: "k2" }, jwks)).message).toMatch(/kid k2/);
  });

  it("components are hashed before they enter the artifact; a malformed pair is a usage error", () => {
    const request = buildOfflineRequest({
      activationCode: " CODE ",
      fingerprint: "fp",
      components: parseComponents("MachineName=box,OsVersion=a=b"),
    });
    expect(request.body.activationCode).toBe("CODE");
    expect(Object.keys(request.body.components!)).toEqual(["MachineName", "OsVersion"]);
    expect(JSON.stringify(request)).not.toContain("box");
    expect(Buffer.from(request.meta.nonce, "base64url")).toHaveLength(32);
    expect(failure(() => parseComponents("novalue")).exitCode).toBe(EXIT.usage);
  });
});
