import type { Db } from "../../db/client.ts";
import { inTransaction, tenantDb, type TenantTx } from "../../db/tenant-db.ts";
import { now } from "../../clock.ts";
import type { TSessionLeaseResponse } from "./activation.schemas.ts";
import { entitlementRoutingKeys } from "./entitlement-routing-keys.ts";
import { emitSeatReleased } from "./end-device-sessions.ts";
import { lockLiveSession, toSessionLeaseResponse } from "./session-access.ts";

/** Ends a live session (SPEC.md "States and transitions": seat released, `Entitlement.SeatReleased`). */
export async function releaseLockedSession(tx: TenantTx, tenantId: string, sessionId: string): Promise<TSessionLeaseResponse> {
  const at = now();
  const { session, claims, fingerprintHash } = await lockLiveSession(tx, tenantId, sessionId, at);
  const released = await tx.licenseSession.update({
    where: { id: session.id },
    data: { revokedAt: at, revocationReason: "Released", seatHeldUntil: at, lastContactAt: at },
  });
  await tx.device.update({ where: { id: session.deviceId }, data: { lastSeenAt: at } });
  const keys = await entitlementRoutingKeys(tx, session.entitlementId);
  await emitSeatReleased(tx, tenantId, keys, [{ id: session.id, leaseExpiresAt: session.leaseExpiresAt, productIds: session.productIds, fingerprintHash }], at);
  return toSessionLeaseResponse(released, claims);
}

/** POST /activations/{sessionId}/release with the session's token. */
export async function releaseSession(base: Db, tenantId: string, sessionId: string): Promise<TSessionLeaseResponse> {
  return inTransaction(tenantDb(base, tenantId), (tx) => releaseLockedSession(tx, tenantId, sessionId), { retryOnConflict: true });
}
