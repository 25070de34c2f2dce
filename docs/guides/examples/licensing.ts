// Licensing a desktop or server application: the calls a shipped application makes, in the order
// it makes them. docs/guides/licensing-an-application.md explains each step; tests run this file
// against a real server (tests/int/guides/guides.int.test.ts), so it cannot rot.
// #region setup
import { createHash, createPublicKey, randomBytes, verify, type JsonWebKey } from "node:crypto";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";

const RUNTIME = "/api/v1/provision";

/** A problem+json answer the application decides on by its `codeName`. */
export class LicenseRefusal extends Error {
  constructor(
    readonly status: number,
    readonly codeName: string,
    detail: string,
  ) {
    super(detail);
  }
}

async function call<T>(url: string, init: RequestInit): Promise<T> {
  const res = await fetch(url, {
    ...init,
    headers: { "content-type": "application/json", ...init.headers },
  });
  const body = res.status === 204 ? null : await res.json();
  if (!res.ok) throw new LicenseRefusal(res.status, body?.codeName ?? "unknown", body?.detail ?? "");
  return body as T;
}

export type StoredLicense = {
  sessionId: string;
  token: string;
  leaseExpiresAt: string;
  nextCheckInDueAt: string | null;
};

// #endregion
// #region activate
// 1. Activate with the code the customer typed and a stable fingerprint of the machine.
export async function activate(baseUrl: string, activationCode: string, fingerprint: string) {
  const answer = await call<StoredLicense & { license: { name: string; state: string } }>(
    `${baseUrl}${RUNTIME}/activations/license`,
    {
      method: "POST",
      // The same key on a retry after a network error answers the same session, never a second seat.
      headers: { "idempotency-key": `activate-${fingerprint}` },
      body: JSON.stringify({ activationCode, fingerprint, deviceName: "Build server 7" }),
    },
  );
  const stored: StoredLicense = {
    sessionId: answer.sessionId,
    token: answer.token,
    leaseExpiresAt: answer.leaseExpiresAt,
    nextCheckInDueAt: answer.nextCheckInDueAt,
  };
  return { stored, licenseName: answer.license.name, state: answer.license.state };
}

// #endregion
// #region verify
// 2. Verify the token offline, at every start, with the tenant's public keys (cache the JWKS; fetch
//    it again only when a token names a key id the cached set lacks: the vendor rotated its key).
export async function fetchJwks(baseUrl: string, tenantId: string): Promise<JSONWebKeySet> {
  return call<JSONWebKeySet>(`${baseUrl}${RUNTIME}/tenants/${tenantId}/jwks.json`, { method: "GET" });
}

export async function verifyOffline(
  token: string,
  jwks: JSONWebKeySet,
  tenantId: string,
  fingerprint: string,
) {
  const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
    issuer: `urn:licensing:tenant:${tenantId}`,
    audience: "license",
    algorithms: ["RS256"],
  });
  // The token names the device by the SHA-256 of its fingerprint: a token copied to another machine fails here.
  const fingerprintHash = createHash("sha256").update(fingerprint, "utf8").digest("hex");
  if (payload.dev_fp !== fingerprintHash) throw new Error("This license belongs to another device.");
  return {
    state: payload.lic_state as "Active" | "Trial" | "Grace",
    features: payload.features as Record<string, string | boolean>,
    leaseEndsAt: new Date((payload.exp as number) * 1000),
  };
}

// #endregion
// #region renew
// 3. Renew before the lease ends (it answers a fresh token to store) and check in on the interval
//    the service asks for (nextCheckInDueAt) on floating and inactivity-based licenses.
export async function renew(baseUrl: string, stored: StoredLicense): Promise<StoredLicense> {
  const answer = await call<StoredLicense>(`${baseUrl}${RUNTIME}/activations/${stored.sessionId}/renew`, {
    method: "POST",
    headers: { authorization: `Bearer ${stored.token}` },
  });
  return { ...stored, token: answer.token, leaseExpiresAt: answer.leaseExpiresAt };
}

export async function checkIn(baseUrl: string, stored: StoredLicense) {
  return call<{ state: string; nextCheckInDueAt: string | null }>(
    `${baseUrl}${RUNTIME}/activations/${stored.sessionId}/check-in`,
    { method: "POST", headers: { authorization: `Bearer ${stored.token}` } },
  );
}

// #endregion
// #region release
// 4. Release on uninstall (or when a floating seat is no longer needed): the seat is free at once.
export async function release(baseUrl: string, stored: StoredLicense) {
  return call<{ state: string }>(`${baseUrl}${RUNTIME}/activations/${stored.sessionId}/release`, {
    method: "POST",
    headers: { authorization: `Bearer ${stored.token}` },
  });
}

// #endregion
// #region refusals
// 5. What the application does with each refusal.
export function nextStep(refusal: LicenseRefusal): string {
  switch (refusal.codeName) {
    case "license.no_active_session":
      return "activate-again"; // released, reset or blocked by the vendor: activate with the code again
    case "license.session_token_rejected":
      return "activate-again"; // the token is not valid for this tenant any more
    case "license.no_seat_available":
    case "license.device_limit_reached":
      return "ask-to-free-a-seat"; // release another device (portal) or buy seats
    case "license.expired":
    case "license.trial_expired":
    case "license.subscription_lapsed":
      return "ask-to-renew";
    case "license.not_found":
    case "activation_code.revoked":
      return "ask-for-another-code";
    case "request.rate_limited":
    case "service.unavailable":
      return "retry-later"; // honour Retry-After; keep working inside the lease and grace meanwhile
    default:
      return "show-detail";
  }
}

// #endregion
// #region offline
// 6. Offline activation: the air-gapped machine writes a request file, an operator turns it into a
//    response file (back office, or POST /operational/activations/offline/issue), and the machine
//    verifies the response with the tenant's public key before trusting it.
export function offlineRequest(activationCode: string, fingerprint: string) {
  return {
    meta: {
      schemaVersion: 1,
      nonce: randomBytes(32).toString("base64url"),
      requestedAt: new Date().toISOString(),
      sdkVersion: "my-app/1.0",
    },
    body: { activationCode, fingerprint, applicationInfo: null, components: null, attestation: null },
  };
}

export function verifyOfflineResponse(
  response: { signedPayload: string; signature: string; kid?: string },
  jwks: JSONWebKeySet,
) {
  const jwk = jwks.keys.find((k) => k.kty === "RSA" && (!response.kid || k.kid === response.kid));
  if (!jwk) throw new Error("No published key verifies this response.");
  const key = createPublicKey({ key: { kty: "RSA", n: jwk.n, e: jwk.e } as JsonWebKey, format: "jwk" });
  // The signature covers the exact bytes of signedPayload: verify first, decode afterwards.
  const valid = verify(
    "RSA-SHA256",
    Buffer.from(response.signedPayload),
    key,
    Buffer.from(response.signature, "base64"),
  );
  if (!valid) throw new Error("The response file was not signed by the vendor.");
  return JSON.parse(Buffer.from(response.signedPayload, "base64url").toString("utf8")) as Record<
    string,
    unknown
  >;
}
// #endregion
