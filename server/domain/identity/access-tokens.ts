import { decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import type { Db } from "../../db/client.ts";
import { accessTokenLifetimeSeconds } from "../../config.ts";
import { now } from "../../clock.ts";
import { PLATFORM_ALG, platformSigningKey, platformVerificationKey } from "./platform-keys.ts";

export const PLATFORM_ISSUER = "urn:licensing:platform";
/** Audience of OAuth client tokens (admin, operational, integrator surfaces). */
export const CLIENT_AUDIENCE = "provision";
/** Audience of signed-in end users' tokens (`consumer/me/*`). */
export const CONSUMER_AUDIENCE = "consumer";
/** Audience of webhook callback tokens. */
export const CALLBACK_AUDIENCE = "callback";

export type AccessTokenClaims = {
  aud: string;
  sub: string;
  tid: string;
  scope: string[];
  /** Database id of the OAuth client or user the token was issued to. */
  cid: string;
  /** OAuth client kind, or `user`. */
  kind: string;
};

export async function signAccessToken(
  db: Db,
  claims: AccessTokenClaims,
  lifetimeSeconds = accessTokenLifetimeSeconds(),
) {
  const key = await platformSigningKey(db);
  const issuedAt = Math.floor(now().getTime() / 1000);
  const token = await new SignJWT({
    tid: claims.tid,
    scope: claims.scope.join(" "),
    cid: claims.cid,
    kind: claims.kind,
  })
    .setProtectedHeader({ alg: PLATFORM_ALG, kid: key.kid, typ: "at+jwt" })
    .setIssuer(PLATFORM_ISSUER)
    .setAudience(claims.aud)
    .setSubject(claims.sub)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + lifetimeSeconds)
    .setJti(crypto.randomUUID())
    .sign(key.privateKey);
  return { token, expiresIn: lifetimeSeconds };
}

/** Verifies a platform-issued token for one audience; null when anything does not validate. */
export async function verifyAccessToken(
  db: Db,
  token: string,
  audience: string,
): Promise<(AccessTokenClaims & { exp: number }) | null> {
  try {
    const { kid } = decodeProtectedHeader(token);
    if (!kid) return null;
    const key = await platformVerificationKey(db, kid);
    if (!key) return null;
    const { payload } = await jwtVerify(token, key.publicKey, {
      issuer: PLATFORM_ISSUER,
      audience,
      algorithms: [PLATFORM_ALG],
      currentDate: now(),
    });
    if (typeof payload.sub !== "string" || typeof payload.tid !== "string" || typeof payload.cid !== "string")
      return null;
    return {
      aud: audience,
      sub: payload.sub,
      tid: payload.tid,
      cid: payload.cid,
      kind: String(payload.kind ?? ""),
      scope: typeof payload.scope === "string" && payload.scope ? payload.scope.split(" ") : [],
      exp: payload.exp ?? 0,
    };
  } catch {
    return null;
  }
}
