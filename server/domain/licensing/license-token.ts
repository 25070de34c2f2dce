import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import type { Db } from "../../db/client.ts";
import { open } from "../../crypto/secret-box.ts";
import { now } from "../../clock.ts";
import { LICENSE_ALG } from "../identity/tenant-signing-keys.ts";

/** Audience of license (session) tokens: they authenticate session calls and nothing else. */
export const LICENSE_AUDIENCE = "license";

/**
 * The issuer names the tenant (keys at `/api/v1/provision/tenants/{tid}/jwks.json`). It is a URN,
 * not the service URL, so moving the service to another host does not invalidate issued tokens.
 */
export const licenseIssuer = (tenantId: string) => `urn:licensing:tenant:${tenantId}`;

/** Lifecycle state the license was issued in: features follow it (isAvailableDuringTrialPeriod / ...GracePeriod). */
export type LicenseState = "Active" | "Trial" | "Grace";

/**
 * DESIGN.md section 5: the claims of a license token. `dev_fp` is the SHA-256 hex hash of the
 * device fingerprint (the client hashes its own fingerprint to compare; the raw value is never
 * put in a bearer credential). `features` holds the features with includeInLicenseToken.
 */
export type LicenseClaims = {
  sub: string;
  ent: string;
  tid: string;
  dev_fp: string;
  exp: number;
  iat: number;
  jti: string;
  lic_state: LicenseState;
  grace_exp: number;
  floating: boolean;
  products: string[];
  features: Record<string, string | boolean>;
};

export type LicenseTokenInput = Omit<LicenseClaims, "iat" | "jti" | "exp" | "grace_exp"> & { expiresAt: Date; graceExpiresAt: Date };

type SigningEntry = { kid: string; key: KeyObject };
const signingKeys = new Map<string, SigningEntry>();

/**
 * The tenant's active signing key. Callers pass the active kid they read in their own query
 * (activation reads it alongside the entitlement), so a rotation takes effect on the very next
 * token while the unsealed private key is reused between tokens.
 */
export async function tenantSigningKey(db: Db, tenantId: string, activeKid?: string): Promise<SigningEntry> {
  const cached = signingKeys.get(tenantId);
  if (cached && activeKid && cached.kid === activeKid) return cached;
  const row = await db.signingKey.findFirst({ where: { tenantId, status: "Active" }, orderBy: { createdAt: "desc" } });
  if (!row) throw new Error(`Tenant ${tenantId} has no active signing key.`);
  const entry = { kid: row.kid, key: createPrivateKey({ key: JSON.parse(open(row.privateKeyEncrypted)), format: "jwk" }) };
  signingKeys.set(tenantId, entry);
  return entry;
}

export async function signLicenseToken(db: Db, input: LicenseTokenInput, activeKid?: string): Promise<string> {
  const { kid, key } = await tenantSigningKey(db, input.tid, activeKid);
  const issuedAt = Math.floor(now().getTime() / 1000);
  const { expiresAt, graceExpiresAt, sub, ...claims } = input;
  return new SignJWT({ ...claims, grace_exp: Math.floor(graceExpiresAt.getTime() / 1000) })
    .setProtectedHeader({ alg: LICENSE_ALG, kid, typ: "JWT" })
    .setIssuer(licenseIssuer(input.tid))
    .setAudience(LICENSE_AUDIENCE)
    .setSubject(sub)
    .setIssuedAt(issuedAt)
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .setJti(crypto.randomUUID())
    .sign(key);
}

type VerificationEntry = { key: KeyObject; publishedUntil: number; checkedAt: number };
const verificationKeys = new Map<string, VerificationEntry>();
/** How long a published key is trusted before its row is read again (a retired key's publishUntil may change). */
const VERIFICATION_CACHE_MS = 60_000;

async function verificationKey(db: Db, tenantId: string, kid: string): Promise<KeyObject | null> {
  const at = now().getTime();
  const cacheKey = `${tenantId}:${kid}`;
  const cached = verificationKeys.get(cacheKey);
  if (cached && at - cached.checkedAt < VERIFICATION_CACHE_MS) return cached.publishedUntil > at ? cached.key : null;
  const row = await db.signingKey.findFirst({ where: { tenantId, kid } });
  if (!row) {
    verificationKeys.delete(cacheKey);
    return null;
  }
  const publishedUntil = row.status === "Active" ? Number.POSITIVE_INFINITY : (row.publishUntil?.getTime() ?? 0);
  const key = cached?.key ?? createPublicKey({ key: row.publicJwk as object, format: "jwk" } as Parameters<typeof createPublicKey>[0]);
  verificationKeys.set(cacheKey, { key, publishedUntil, checkedAt: at });
  return publishedUntil > at ? key : null;
}

/**
 * SPEC.md "Authentication" item 5: a license token is accepted only when it is signed by one of
 * its tenant's published keys, names the license audience and is inside its lifetime. Anything
 * else is null (the caller answers 401 `license.session_token_rejected`).
 */
export async function verifyLicenseToken(db: Db, token: string): Promise<LicenseClaims | null> {
  try {
    const { kid, alg } = decodeProtectedHeader(token);
    const unverified = decodeJwt(token);
    if (!kid || alg !== LICENSE_ALG || typeof unverified.tid !== "string" || !/^[0-9a-f-]{36}$/i.test(unverified.tid)) return null;
    const key = await verificationKey(db, unverified.tid, kid);
    if (!key) return null;
    const { payload } = await jwtVerify(token, key, {
      issuer: licenseIssuer(unverified.tid),
      audience: LICENSE_AUDIENCE,
      algorithms: [LICENSE_ALG],
      currentDate: now(),
      requiredClaims: ["sub", "exp", "iat", "jti"],
    });
    if (typeof payload.sub !== "string" || typeof payload.ent !== "string" || typeof payload.dev_fp !== "string") return null;
    return payload as unknown as LicenseClaims;
  } catch {
    return null;
  }
}
