import type { DomainContext } from "../../context.ts";
import { inSqlTransaction } from "../../../db/sql.ts";
import { now } from "../../../clock.ts";
import { outboxRows } from "../../webhooks/events/emit-event.ts";
import type { TSessionLeaseResponse } from "../activation/activation.schemas.ts";
import { contactTerms } from "../activation/lease-terms.ts";
import { contactWithoutLock } from "./contact-without-lock.ts";
import { seatActivatedEvents } from "./seat-events.ts";
import {
  assertSessionCaller,
  lockSessionForContact,
  touchSession,
  toSessionLeaseResponse,
} from "./session-access.ts";

/**
 * POST /activations/{sessionId}/check-in: the heartbeat. It records the contact and, for an
 * inactivity-based license, keeps the seat for another inactivityTimeout (never past the lease).
 * It does not extend the lease (renew does). A session whose seat was freed by inactivity takes
 * one again when one is free (`Entitlement.SeatActivated`), else 409 `license.no_seat_available`.
 * Commonly one autocommit statement (contactWithoutLock); else one locking read and one write.
 */
export async function checkInSession(ctx: DomainContext, sessionId: string): Promise<TSessionLeaseResponse> {
  assertSessionCaller(ctx, sessionId);
  const tenantId = ctx.tenantId;
  const fast = await contactWithoutLock(ctx, sessionId, "check-in", now());
  if (fast) return toSessionLeaseResponse(fast.session, fast.claims);
  return inSqlTransaction(ctx.db, tenantId, async (sql) => {
    const at = now();
    const live = await lockSessionForContact(sql, tenantId, sessionId, at);
    const { session, claims, fingerprintHash, retakesSeat, routingKeys } = live;
    const { seatHeldUntil } = contactTerms(claims, session.leaseExpiresAt, at);
    const events =
      retakesSeat && routingKeys
        ? outboxRows(seatActivatedEvents(tenantId, routingKeys, session, fingerprintHash, at, false))
        : "[]";
    const updated = await touchSession(sql, tenantId, session.id, { at, seatHeldUntil }, events);
    return toSessionLeaseResponse(updated, claims);
  });
}
