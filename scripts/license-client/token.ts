import { createHash } from "node:crypto";
import { createLocalJWKSet, decodeJwt, errors, jwtVerify, type JSONWebKeySet, type JWTPayload } from "jose";
import { ClientError, EXIT } from "./errors.ts";
import { callJson, jwksUrl } from "./http.ts";

/** The claims the service puts in a license token (server/domain/licensing/tokens/license-token.ts). */
export type LicenseTokenClaims = JWTPayload & {
  sub: string;
  ent: string;
  tid: string;
  dev_fp: string;
  lic_state: "Active" | "Trial" | "Grace";
  grace_exp: number;
  floating: boolean;
  products: string[];
  features: Record<string, string | boolean>;
  exp: number;
  iat: number;
  jti: string;
};

export const LICENSE_AUDIENCE = "license";
const ISSUER_PREFIX = "urn:licensing:tenant:";
const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** SHA-256 lowercase hex, as `dev_fp` and the offline components carry it: raw values never leave the client. */
export const sha256Hex = (value: string) => createHash("sha256").update(value, "utf8").digest("hex");

/**
 * The tenant a token claims to come from, read from its issuer (`urn:licensing:tenant:<tid>`)
 * before verification: it only chooses which JWKS to fetch, and verification then pins the issuer.
 */
export function tenantOfToken(token: string): string {
  let claims: JWTPayload;
  try {
    claims = decodeJwt(token);
  } catch {
    throw new ClientError(EXIT.verificationFailed, "The license token is not a JWT.");
  }
  const tid =
    typeof claims.iss === "string" && claims.iss.startsWith(ISSUER_PREFIX)
      ? claims.iss.slice(ISSUER_PREFIX.length)
      : "";
  if (!TENANT_ID.test(tid))
    throw new ClientError(
      EXIT.verificationFailed,
      `The license token's issuer ${JSON.stringify(claims.iss)} names no tenant.`,
    );
  return tid;
}

export const fetchJwks = (baseUrl: string, tenantId: string) =>
  callJson<JSONWebKeySet>(jwksUrl(baseUrl, tenantId), "GET", "");

/** Whether the key set holds the key the token names (else a fresh JWKS is worth fetching: the tenant rotated). */
export function jwksHasKid(jwks: JSONWebKeySet, token: string): boolean {
  try {
    const [header] = token.split(".");
    const kid = (JSON.parse(Buffer.from(header, "base64url").toString("utf8")) as { kid?: string }).kid;
    return jwks.keys.some((k) => k.kid === kid);
  } catch {
    return false;
  }
}

/**
 * Offline verification of a license token against the tenant's published keys: RS256 only, the
 * license audience, the tenant's issuer, inside its lifetime, and, when the fingerprint is given,
 * bound to this device (`dev_fp` = SHA-256 hex of the fingerprint).
 */
export async function verifyLicenseToken(
  token: string,
  jwks: JSONWebKeySet,
  options: { fingerprint?: string; currentDate?: Date } = {},
): Promise<LicenseTokenClaims> {
  const tenantId = tenantOfToken(token);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
      algorithms: ["RS256"],
      audience: LICENSE_AUDIENCE,
      issuer: `${ISSUER_PREFIX}${tenantId}`,
      requiredClaims: ["sub", "exp", "iat", "jti"],
      currentDate: options.currentDate,
    }));
  } catch (error) {
    const reason =
      error instanceof errors.JWTExpired
        ? "the token has expired"
        : error instanceof errors.JWSSignatureVerificationFailed
          ? "the signature does not verify"
          : error instanceof errors.JWKSNoMatchingKey
            ? "no published key matches the token's kid"
            : error instanceof Error
              ? error.message
              : String(error);
    throw new ClientError(EXIT.verificationFailed, `License token rejected: ${reason}.`);
  }
  const claims = payload as LicenseTokenClaims;
  if (claims.tid !== tenantId)
    throw new ClientError(
      EXIT.verificationFailed,
      "License token rejected: its tid does not match its issuer.",
    );
  if (options.fingerprint !== undefined && claims.dev_fp !== sha256Hex(options.fingerprint)) {
    throw new ClientError(
      EXIT.verificationFailed,
      "License token rejected: it was issued to another device (dev_fp does not match this fingerprint).",
    );
  }
  return claims;
}

/** What the client prints about a verified token (never the token itself: it is a bearer credential). */
export const tokenSummary = (claims: LicenseTokenClaims) => ({
  sessionId: claims.sub,
  entitlementId: claims.ent,
  tenantId: claims.tid,
  licenseState: claims.lic_state,
  floating: claims.floating,
  products: claims.products,
  features: claims.features,
  issuedAt: new Date(claims.iat * 1000).toISOString(),
  leaseExpiresAt: new Date(claims.exp * 1000).toISOString(),
  graceExpiresAt: new Date(claims.grace_exp * 1000).toISOString(),
});
