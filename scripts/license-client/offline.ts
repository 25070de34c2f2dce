import { createPublicKey, randomBytes, verify, type JsonWebKey } from "node:crypto";
import type { JSONWebKeySet } from "jose";
import { ClientError, EXIT } from "./errors.ts";
import { sha256Hex } from "./token.ts";

export const SDK_VERSION = "license-client/1";

/** docs/api.md "Offline activation artifacts": the request an air-gapped machine hands to an admin. */
export type OfflineRequest = {
  meta: { schemaVersion: 1; nonce: string; requestedAt: string; sdkVersion: string };
  body: {
    activationCode: string;
    fingerprint: string;
    applicationInfo: Record<string, string | null> | null;
    components: Record<string, string> | null;
    attestation: { fingerprint: string; x5c: string[] } | null;
  };
};

/** The signed answer: signedPayload is base64url of UTF-8 JSON, signature is base64 RSA-SHA256 (PKCS#1 v1.5) over signedPayload's bytes. */
export type OfflineResponse = { signedPayload: string; signature: string; kid?: string };

/**
 * Builds a request artifact. Component values are hashed here (SHA-256 hex) so raw device
 * identity (machine name, MAC address, user name) never leaves the machine.
 */
export function buildOfflineRequest(input: {
  activationCode: string;
  fingerprint: string;
  components?: Record<string, string> | null;
  applicationInfo?: Record<string, string | null> | null;
  requestedAt?: Date;
}): OfflineRequest {
  if (!input.activationCode.trim()) throw new ClientError(EXIT.usage, "An activation code is required.");
  if (!input.fingerprint) throw new ClientError(EXIT.usage, "A fingerprint is required.");
  const components =
    input.components && Object.keys(input.components).length
      ? Object.fromEntries(Object.entries(input.components).map(([key, raw]) => [key, sha256Hex(raw)]))
      : null;
  return {
    meta: {
      schemaVersion: 1,
      nonce: randomBytes(32).toString("base64url"),
      requestedAt: (input.requestedAt ?? new Date()).toISOString(),
      sdkVersion: SDK_VERSION,
    },
    body: {
      activationCode: input.activationCode.trim(),
      fingerprint: input.fingerprint,
      applicationInfo: input.applicationInfo ?? null,
      components,
      attestation: null,
    },
  };
}

/** `k=v,k=v` → { k: v }. Values may contain `=`; keys may not be empty. */
export function parseComponents(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split(",").filter((p) => p.trim())) {
    const at = pair.indexOf("=");
    const key = at < 0 ? "" : pair.slice(0, at).trim();
    if (!key)
      throw new ClientError(EXIT.usage, `A component must be key=value, got ${JSON.stringify(pair)}.`);
    out[key] = pair.slice(at + 1);
  }
  return out;
}

/** The nonce the response echoes. The payload's layout is the issuer's; these are the places it may sit. */
function echoedNonce(license: Record<string, unknown>): unknown {
  const meta = license.meta as Record<string, unknown> | undefined;
  const request = license.request as Record<string, unknown> | undefined;
  return license.nonce ?? meta?.nonce ?? request?.nonce;
}

/**
 * Verifies a response artifact with the tenant's public key (chosen by `kid`, or the only RSA key
 * when the response names none) and answers the decoded license. The payload is verified as the
 * exact bytes received and decoded afterwards, never re-serialized. With the request, its nonce
 * must be the one echoed.
 */
export function verifyOfflineResponse(
  response: OfflineResponse,
  jwks: JSONWebKeySet,
  request?: OfflineRequest,
): { kid: string | undefined; license: Record<string, unknown> } {
  if (typeof response?.signedPayload !== "string" || typeof response.signature !== "string") {
    throw new ClientError(EXIT.verificationFailed, "The response artifact lacks signedPayload or signature.");
  }
  const candidates = jwks.keys.filter(
    (k) => k.kty === "RSA" && (response.kid ? k.kid === response.kid : true),
  );
  if (!candidates.length)
    throw new ClientError(
      EXIT.verificationFailed,
      `No published RSA key${response.kid ? ` with kid ${response.kid}` : ""} to verify the response with.`,
    );
  if (!response.kid && candidates.length > 1)
    throw new ClientError(
      EXIT.verificationFailed,
      "The response names no kid and the key set has several RSA keys.",
    );
  const jwk = candidates[0];
  const publicKey = createPublicKey({
    key: { kty: jwk.kty, n: jwk.n, e: jwk.e } as JsonWebKey,
    format: "jwk",
  });
  const valid = verify(
    "RSA-SHA256",
    Buffer.from(response.signedPayload),
    publicKey,
    Buffer.from(response.signature, "base64"),
  );
  if (!valid)
    throw new ClientError(
      EXIT.verificationFailed,
      "The response's signature does not verify with the tenant's key.",
    );
  let license: Record<string, unknown>;
  try {
    license = JSON.parse(Buffer.from(response.signedPayload, "base64url").toString("utf8")) as Record<
      string,
      unknown
    >;
  } catch {
    throw new ClientError(EXIT.verificationFailed, "The signed payload is not base64url JSON.");
  }
  if (request) {
    const nonce = echoedNonce(license);
    if (nonce !== request.meta.nonce)
      throw new ClientError(
        EXIT.verificationFailed,
        `The response answers another request: nonce ${JSON.stringify(nonce)} is not ${request.meta.nonce}.`,
      );
  }
  return { kid: jwk.kid, license };
}
