import type { Entitlement, LicenseSession } from "../../db/generated/client.ts";
import type { TenantTx } from "../../db/tenant-db.ts";
import { AppError } from "../../http/errors.ts";
import { ZClaimBasedActivation, type TClaimBasedActivation } from "../entitlements/policies.schemas.ts";
import type { TSessionLeaseResponse } from "./activation.schemas.ts";
import { contactTerms } from "./lease-terms.ts";

export const noActiveSession = () =>
  new AppError("license.no_active_session", "The session no longer exists (released, reset, blocked or expired); activate again.");

export type LiveSession = { session: LicenseSession; entitlement: Entitlement; claims: TClaimBasedActivation; fingerprintHash: string; hasGrants: boolean };

/**
 * The session a session call names, locked for the call: 409 `license.no_active_session` when it
 * was revoked (released, reset, blocked, swept), its grace has run out, or its entitlement is gone.
 * `lockEntitlementFirst` also locks the session's entitlement, for a call that takes a seat again.
 */
export async function lockLiveSession(tx: TenantTx, tenantId: string, sessionId: string, at: Date, options: { lockEntitlementFirst?: boolean } = {}): Promise<LiveSession> {
  if (options.lockEntitlementFirst) {
    await tx.$queryRaw`
      SELECT e.id FROM "Entitlement" e JOIN "LicenseSession" s ON s."entitlementId" = e.id AND s."tenantId" = e."tenantId"
      WHERE s."tenantId" = ${tenantId}::uuid AND s.id = ${sessionId}::uuid FOR UPDATE OF e`;
  }
  // One round trip: the session (locked), its device's fingerprint hash and its entitlement.
  const [row] = await tx.$queryRaw<(LicenseSession & { fingerprintHash: string; hasGrants: boolean; entitlement: Entitlement & { createdAt: string; updatedAt: string } })[]>`
    SELECT s.*, d."fingerprintHash", to_jsonb(e.*) AS entitlement,
      EXISTS (SELECT 1 FROM "AddOnGrant" g WHERE g."tenantId" = e."tenantId" AND g."entitlementId" = e.id AND NOT g."isRevoked") AS "hasGrants"
    FROM "LicenseSession" s
    JOIN "Device" d ON d.id = s."deviceId" AND d."tenantId" = s."tenantId"
    JOIN "Entitlement" e ON e.id = s."entitlementId" AND e."tenantId" = s."tenantId"
    WHERE s."tenantId" = ${tenantId}::uuid AND s.id = ${sessionId}::uuid
    FOR UPDATE OF s`;
  if (!row || row.revokedAt || row.graceExpiresAt <= at || row.entitlement.status !== "Published") throw noActiveSession();
  const { fingerprintHash, hasGrants, entitlement: json, ...session } = row;
  const entitlement = reviveEntitlement(json);
  return { session, entitlement, claims: ZClaimBasedActivation.parse(entitlement.claimBasedActivation ?? {}), fingerprintHash, hasGrants };
}

/** `to_jsonb` gives timestamps as strings; the rest of the row is already in Prisma's shapes. */
function reviveEntitlement(json: Record<string, unknown>): Entitlement {
  const dates = ["notValidBeforeDateTime", "expirationDateTime", "anonymousTryIssuedAt", "anonymousTryPurgeDueAt", "createdAt", "updatedAt"] as const;
  const out: Record<string, unknown> = { ...json };
  for (const key of dates) out[key] = json[key] == null ? null : new Date(json[key] as string);
  return out as Entitlement;
}

/**
 * The lock for renew and check-in. A session that holds its seat needs only its own lock (the
 * common, fast case). One that lost its seat (inactivity) takes one again if one is free (409
 * `license.no_seat_available` otherwise), which needs the entitlement's lock too so seats are
 * counted alone. Taking it after the session's lock can, rarely, deadlock with an activation of
 * the same device; PostgreSQL aborts one of the two and the callers' `retryOnConflict` runs it again.
 */
export async function lockSessionForContact(tx: TenantTx, tenantId: string, sessionId: string, at: Date): Promise<LiveSession & { retakesSeat: boolean }> {
  const live = await lockLiveSession(tx, tenantId, sessionId, at);
  if (live.session.seatHeldUntil > at) return { ...live, retakesSeat: false };
  const relocked = await lockLiveSession(tx, tenantId, sessionId, at, { lockEntitlementFirst: true });
  const held = await tx.licenseSession.count({ where: { entitlementId: relocked.entitlement.id, revokedAt: null, seatHeldUntil: { gt: at } } });
  if (held >= relocked.claims.numberOfSeats) throw new AppError("license.no_seat_available", `All ${relocked.claims.numberOfSeats} seats of this license are in use.`);
  return { ...relocked, retakesSeat: true };
}

/** Records a contact on the session and its device in one statement. */
export async function touchSession(tx: TenantTx, tenantId: string, sessionId: string, data: { at: Date; leaseExpiresAt?: Date; graceExpiresAt?: Date; seatHeldUntil: Date; validUntil?: Date | null }): Promise<LicenseSession> {
  const [session] = await tx.$queryRaw<LicenseSession[]>`
    WITH s AS (
      UPDATE "LicenseSession" SET
        "lastContactAt" = ${data.at},
        "seatHeldUntil" = ${data.seatHeldUntil},
        "leaseExpiresAt" = COALESCE(${data.leaseExpiresAt ?? null}::timestamptz, "leaseExpiresAt"),
        "graceExpiresAt" = COALESCE(${data.graceExpiresAt ?? null}::timestamptz, "graceExpiresAt"),
        "validUntil" = CASE WHEN ${data.validUntil !== undefined}::boolean THEN ${data.validUntil ?? null}::timestamptz ELSE "validUntil" END,
        "updatedAt" = ${data.at}
      WHERE "tenantId" = ${tenantId}::uuid AND id = ${sessionId}::uuid
      RETURNING *),
    d AS (UPDATE "Device" SET "lastSeenAt" = ${data.at}, "updatedAt" = ${data.at} WHERE "tenantId" = ${tenantId}::uuid AND id = (SELECT "deviceId" FROM s))
    SELECT * FROM s`;
  return session;
}

export function toSessionLeaseResponse(session: LicenseSession, claims: TClaimBasedActivation): TSessionLeaseResponse {
  const live = !session.revokedAt;
  return {
    sessionId: session.id,
    entitlementId: session.entitlementId,
    state: live ? "Active" : "Released",
    leaseExpiresAt: session.leaseExpiresAt.toISOString(),
    graceExpiresAt: session.graceExpiresAt.toISOString(),
    seatHeldUntil: session.seatHeldUntil.toISOString(),
    nextCheckInDueAt: live && session.lastContactAt ? (contactTerms(claims, session.leaseExpiresAt, session.lastContactAt).nextCheckInDueAt?.toISOString() ?? null) : null,
    lastContactAt: session.lastContactAt?.toISOString() ?? null,
  };
}

/** A session call names its session in the path; the token must be that session's. */
export function assertTokenSession(tokenSessionId: string, pathSessionId: string): void {
  if (tokenSessionId !== pathSessionId) {
    throw new AppError("license.session_token_rejected", "The license token belongs to another session.");
  }
}
