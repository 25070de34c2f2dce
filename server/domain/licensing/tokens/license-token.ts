import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import type { Db } from "../../../db/client.ts";
import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { open } from "../../../crypto/secret-box.ts";
import { now } from "../../../clock.ts";
import { LICENSE_ALG } from "../../identity/tenant-signing-keys.ts";

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
 * docs/architecture.md section 5: the claims of a license token. `dev_fp` is the SHA-256 hex hash of the
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

export type LicenseTokenInput = Omit<LicenseClaims, "iat" | "jti" | "exp" | "grace_exp"> & {
  expiresAt: Date;
  graceExpiresAt: Date;
};

type SigningEntry = { kid: string; key: KeyObject };
const signingKeys = new Map<string, SigningEntry>();
const signingLoads = new Map<string, Promise<SigningEntry>>();

async function loadSigningKey(db: Db | TenantDbOrTx, tenantId: string, kid: string): Promise<SigningEntry> {
  const row = await db.signingKey.findFirst({
    where: { tenantId, kid, status: "Active" },
    select: { kid: true, privateKeyEncrypted: true },
  });
  if (!row) throw new Error(`Tenant ${tenantId} has no active signing key ${kid}.`);
  const entry = {
    kid: row.kid,
    key: createPrivateKey({ key: JSON.parse(open(row.privateKeyEncrypted)), format: "jwk" }),
  };
  signingKeys.set(tenantId, entry);
  // Tokens this process signs from now on verify here without a lookup of their new kid.
  learnVerificationKey(tenantId, entry.kid, createPublicKey(entry.key));
  return entry;
}

/**
 * The tenant's active signing key, unsealed once per key version (its kid) and kept as a
 * `KeyObject` (docs/architecture.md section 11). The version is the active kid: callers on the hot path read
 * it in their own statement (activation, renew, offline issue) and pass it, so a rotation takes
 * effect on every web process at its very next token with no extra query; a caller that does not
 * know it costs one indexed read of the kid (never an unsealing while it is unchanged).
 * Concurrent loads of one key share one read.
 */
export async function tenantSigningKey(
  db: Db | TenantDbOrTx,
  tenantId: string,
  activeKid?: string,
): Promise<SigningEntry> {
  const cached = signingKeys.get(tenantId);
  const kid =
    activeKid ??
    (
      await db.signingKey.findFirst({
        where: { tenantId, status: "Active" },
        orderBy: { createdAt: "desc" },
        select: { kid: true },
      })
    )?.kid;
  if (!kid) throw new Error(`Tenant ${tenantId} has no active signing key.`);
  if (cached?.kid === kid) return cached;
  const loadKey = `${tenantId}:${kid}`;
  let load = signingLoads.get(loadKey);
  if (!load) {
    load = loadSigningKey(db, tenantId, kid).finally(() => signingLoads.delete(loadKey));
    signingLoads.set(loadKey, load);
  }
  return load;
}

export async function signLicenseToken(
  db: Db | TenantDbOrTx,
  input: LicenseTokenInput,
  activeKid?: string,
): Promise<string> {
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

type PublishedKey = { key: KeyObject; publishedUntil: number };
type TenantKeys = { keys: Map<string, PublishedKey>; loadedAt: number; refresh?: Promise<TenantKeys | null> };

/**
 * Verification keys, per tenant: every key of the tenant, read in one query. Bounded by the keys
 * that exist, never by what tokens claim: an unknown kid re-reads its tenant's keys at most once
 * per UNKNOWN_KID_REFRESH_MS (callers in between wait for that read instead of each querying), and
 * a token naming a tenant without keys caches nothing (docs/security.md "Unknown key ids").
 */
const verificationKeys = new Map<string, TenantKeys>();
/** How long a tenant's keys are trusted before they are read again (a retired key's publishUntil may change). */
const VERIFICATION_CACHE_MS = 60_000;
/** The shortest interval between two reads of one tenant's keys caused by kids it does not know. */
export const UNKNOWN_KID_REFRESH_MS = 1_000;
/** At most this many tenants' keys are held; the oldest entry makes room. */
const MAX_CACHED_TENANTS = 10_000;

/** Tenants whose verification keys this process holds (for the test that bounds it). */
export const verificationCacheSize = () => verificationKeys.size;

const monotonicMs = () => performance.now();

function learnVerificationKey(tenantId: string, kid: string, key: KeyObject): void {
  const entry = verificationKeys.get(tenantId);
  if (entry && !entry.keys.has(kid)) entry.keys.set(kid, { key, publishedUntil: Number.POSITIVE_INFINITY });
}

async function loadTenantKeys(db: Db, tenantId: string, previous?: TenantKeys): Promise<TenantKeys | null> {
  const rows = await db.signingKey.findMany({
    where: { tenantId },
    select: { kid: true, status: true, publicJwk: true, publishUntil: true },
  });
  if (rows.length === 0) {
    verificationKeys.delete(tenantId);
    return null;
  }
  const keys = new Map<string, PublishedKey>();
  for (const row of rows) {
    const key =
      previous?.keys.get(row.kid)?.key ??
      createPublicKey({ key: row.publicJwk as object, format: "jwk" } as Parameters<
        typeof createPublicKey
      >[0]);
    const publishedUntil =
      row.status === "Active" ? Number.POSITIVE_INFINITY : (row.publishUntil?.getTime() ?? 0);
    keys.set(row.kid, { key, publishedUntil });
  }
  const entry: TenantKeys = { keys, loadedAt: monotonicMs() };
  verificationKeys.delete(tenantId);
  verificationKeys.set(tenantId, entry);
  if (verificationKeys.size > MAX_CACHED_TENANTS)
    verificationKeys.delete(verificationKeys.keys().next().value as string);
  return entry;
}

/** First reads under way, by tenant, so a cold process reads a tenant's keys once. */
const firstLoads = new Map<string, Promise<TenantKeys | null>>();

/** One read of the tenant's keys for everyone who asks meanwhile, started no sooner than `notBefore`. */
function refreshTenantKeys(db: Db, tenantId: string, entry: TenantKeys | undefined, notBefore: number) {
  if (entry?.refresh) return entry.refresh;
  if (!entry) {
    let first = firstLoads.get(tenantId);
    if (!first) {
      first = loadTenantKeys(db, tenantId).finally(() => firstLoads.delete(tenantId));
      firstLoads.set(tenantId, first);
    }
    return first;
  }
  const wait = Math.max(0, notBefore - monotonicMs());
  const refresh = (wait ? new Promise((resolve) => setTimeout(resolve, wait)) : Promise.resolve()).then(() =>
    loadTenantKeys(db, tenantId, entry),
  );
  entry.refresh = refresh;
  void refresh.finally(() => (entry.refresh = undefined)).catch(() => undefined);
  return refresh;
}

async function verificationKey(db: Db, tenantId: string, kid: string): Promise<KeyObject | null> {
  let entry: TenantKeys | null | undefined = verificationKeys.get(tenantId);
  if (!entry || monotonicMs() - entry.loadedAt > VERIFICATION_CACHE_MS)
    entry = await refreshTenantKeys(db, tenantId, entry, 0);
  if (!entry) return null;
  let published = entry.keys.get(kid);
  if (!published) {
    // A kid this process has not seen: a rotation on another process, or a forged token. Either
    // way one read of the tenant's keys answers it, and at most one such read runs per interval.
    entry = await refreshTenantKeys(db, tenantId, entry, entry.loadedAt + UNKNOWN_KID_REFRESH_MS);
    published = entry?.keys.get(kid);
  }
  if (!published) return null;
  return published.publishedUntil > now().getTime() ? published.key : null;
}

/**
 * docs/api.md "Authentication" item 5: a license token is accepted only when it is signed by one of
 * its tenant's published keys, names the license audience and is inside its lifetime. Anything
 * else is null (the caller answers 401 `license.session_token_rejected`).
 */
export async function verifyLicenseToken(db: Db, token: string): Promise<LicenseClaims | null> {
  const verified = verifiedTokens.get(token);
  if (verified) return stillValid(db, token, verified);
  try {
    const { kid, alg } = decodeProtectedHeader(token);
    const unverified = decodeJwt(token);
    if (
      !kid ||
      alg !== LICENSE_ALG ||
      typeof unverified.tid !== "string" ||
      !/^[0-9a-f-]{36}$/i.test(unverified.tid)
    )
      return null;
    const key = await verificationKey(db, unverified.tid, kid);
    if (!key) return null;
    const { payload } = await jwtVerify(token, key, {
      issuer: licenseIssuer(unverified.tid),
      audience: LICENSE_AUDIENCE,
      algorithms: [LICENSE_ALG],
      currentDate: now(),
      requiredClaims: ["sub", "exp", "iat", "jti"],
    });
    if (
      typeof payload.sub !== "string" ||
      typeof payload.ent !== "string" ||
      typeof payload.dev_fp !== "string"
    )
      return null;
    const claims = Object.freeze(payload) as unknown as LicenseClaims;
    verifiedTokens.set(token, { kid, claims });
    if (verifiedTokens.size > MAX_VERIFIED_TOKENS)
      verifiedTokens.delete(verifiedTokens.keys().next().value as string);
    return claims;
  } catch {
    return null;
  }
}

/**
 * Tokens this process verified, by their text. Their signature, issuer, audience and claims were
 * checked and cannot change; what can is checked again on every use (stillValid): the lifetime,
 * and whether the key is still published. A check-in presents the same token all lease long, so
 * its signature is checked once, not at every heartbeat. Only verified tokens are held, so a
 * caller cannot fill it with forgeries.
 */
const verifiedTokens = new Map<string, { kid: string; claims: LicenseClaims }>();
/** At most this many tokens are held; the oldest entry makes room. */
const MAX_VERIFIED_TOKENS = 20_000;

/** jwtVerify's time checks (exp, nbf; no clock tolerance) and the key's publication, for a token verified before. */
async function stillValid(
  db: Db,
  token: string,
  { kid, claims }: { kid: string; claims: LicenseClaims },
): Promise<LicenseClaims | null> {
  const at = Math.floor(now().getTime() / 1000);
  const nbf = (claims as { nbf?: number }).nbf;
  if (claims.exp <= at) {
    verifiedTokens.delete(token);
    return null;
  }
  if (nbf !== undefined && nbf > at) return null;
  return (await verificationKey(db, claims.tid, kid)) ? claims : null;
}
