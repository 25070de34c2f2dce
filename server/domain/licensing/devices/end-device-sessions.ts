import type { TenantTx } from "../../../db/tenant-db.ts";
import { emitEvents } from "../../webhooks/events/emit-event.ts";
import { seatReleasedEvents } from "../sessions/seat-events.ts";
import type { ZEntitlementRoutingKeys } from "../../webhooks/events/event-data.schemas.ts";
import type { z } from "zod";

type EndedSession = { id: string; leaseExpiresAt: Date; productIds: string[]; fingerprintHash: string };

/**
 * Revokes the unrevoked sessions matching `where` (a reset or a block): they end the next time
 * the device contacts the service, their seats are free, and they no longer count against an
 * activation code's device limit. Returns what was ended, for the caller's events.
 */
export async function revokeSessions(
  tx: TenantTx,
  where: { entitlementId: string; deviceId?: string },
  reason: "DeviceReset" | "DeviceBlocked",
  at: Date,
): Promise<EndedSession[]> {
  const sessions = await tx.licenseSession.findMany({
    where: { ...where, revokedAt: null },
    select: {
      id: true,
      leaseExpiresAt: true,
      productIds: true,
      device: { select: { fingerprintHash: true } },
    },
    orderBy: { activatedAt: "asc" },
  });
  if (sessions.length === 0) return [];
  await tx.licenseSession.updateMany({
    where: { id: { in: sessions.map((s) => s.id) }, revokedAt: null },
    data: { revokedAt: at, revocationReason: reason },
  });
  return sessions.map((s) => ({
    id: s.id,
    leaseExpiresAt: s.leaseExpiresAt,
    productIds: s.productIds,
    fingerprintHash: s.device.fingerprintHash,
  }));
}

/** `Entitlement.SeatReleased` for every session a reset or block ended (docs/api.md "States and transitions"). */
export async function emitSeatReleased(
  tx: TenantTx,
  tenantId: string,
  keys: z.infer<typeof ZEntitlementRoutingKeys>,
  sessions: EndedSession[],
  at: Date,
): Promise<void> {
  if (sessions.length) await emitEvents(tx, seatReleasedEvents(tenantId, keys, sessions, at));
}
