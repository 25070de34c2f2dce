import type { Entitlement, LicenseSession } from "../../db/generated/client.ts";
import type { TenantTx } from "../../db/tenant-db.ts";
import { AppError } from "../../http/errors.ts";
import { ZClaimBasedActivation, type TClaimBasedActivation } from "../entitlements/policies.schemas.ts";
import type { TSessionLeaseResponse } from "./activation.schemas.ts";
import { contactTerms } from "./lease-terms.ts";

export const noActiveSession = () =>
  new AppError("license.no_active_session", "The session no longer exists (released, reset, blocked or expired); activate again.");

export type LiveSession = { session: LicenseSession; entitlement: Entitlement; claims: TClaimBasedActivation; fingerprintHash: string };

/**
 * The session a session call names, locked for the call: 409 `license.no_active_session` when it
 * was revoked (released, reset, blocked, swept), its grace has run out, or its entitlement is gone.
 * When the call may need to take a seat again, `lockEntitlementFirst` takes the entitlement lock
 * before the session's, in the order activation uses, so the two never deadlock.
 */
export async function lockLiveSession(tx: TenantTx, tenantId: string, sessionId: string, at: Date, options: { lockEntitlementFirst?: boolean } = {}): Promise<LiveSession> {
  const peek = await tx.licenseSession.findFirst({ where: { id: sessionId }, select: { entitlementId: true } });
  if (!peek) throw noActiveSession();
  if (options.lockEntitlementFirst) await tx.$queryRaw`SELECT id FROM "Entitlement" WHERE "tenantId" = ${tenantId}::uuid AND id = ${peek.entitlementId}::uuid FOR UPDATE`;
  const [session] = await tx.$queryRaw<LicenseSession[]>`
    SELECT * FROM "LicenseSession" WHERE "tenantId" = ${tenantId}::uuid AND id = ${sessionId}::uuid FOR UPDATE`;
  if (!session || session.revokedAt || session.graceExpiresAt <= at) throw noActiveSession();
  const entitlement = await tx.entitlement.findFirst({ where: { id: session.entitlementId } });
  if (!entitlement || entitlement.status !== "Published") throw noActiveSession();
  const device = await tx.device.findFirst({ where: { id: session.deviceId }, select: { fingerprintHash: true } });
  return { session, entitlement, claims: ZClaimBasedActivation.parse(entitlement.claimBasedActivation ?? {}), fingerprintHash: device?.fingerprintHash ?? "" };
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
