import type { Db } from "../../db/client.ts";
import { inTransaction, tenantDb } from "../../db/tenant-db.ts";
import { now } from "../../clock.ts";
import type { TSessionLeaseResponse } from "./activation.schemas.ts";
import { contactTerms } from "./lease-terms.ts";
import { lockSessionForContact, touchSession, toSessionLeaseResponse } from "./session-access.ts";

/**
 * POST /activations/{sessionId}/check-in: the heartbeat. It records the contact and, for an
 * inactivity-based license, keeps the seat for another inactivityTimeout (never past the lease).
 * It does not extend the lease (renew does). A session whose seat was freed by inactivity takes
 * one again when one is free, else 409 `license.no_seat_available`.
 */
export async function checkInSession(base: Db, tenantId: string, sessionId: string): Promise<TSessionLeaseResponse> {
  return inTransaction(
    tenantDb(base, tenantId),
    async (tx) => {
      const at = now();
      const { session, claims } = await lockSessionForContact(tx, tenantId, sessionId, at);
      const { seatHeldUntil } = contactTerms(claims, session.leaseExpiresAt, at);
      const updated = await touchSession(tx, tenantId, session.id, { at, seatHeldUntil });
      return toSessionLeaseResponse(updated, claims);
    },
    { retryOnConflict: true },
  );
}
