import type { DomainContext } from "../../context.ts";
import { inSqlTransaction } from "../../../db/sql.ts";
import { now } from "../../../clock.ts";
import { outboxRows } from "../../webhooks/events/emit-event.ts";
import { issueLicenseToken } from "../tokens/issue-license-token.ts";
import { durationMs, leaseTerms } from "../activation/lease-terms.ts";
import { licenseState } from "../activation/license-state.ts";
import { contactWithoutLock } from "./contact-without-lock.ts";
import { seatActivatedEvents } from "./seat-events.ts";
import {
  assertSessionCaller,
  lockSessionForContact,
  touchSession,
  toSessionLeaseResponse,
} from "./session-access.ts";

/**
 * POST /activations/{sessionId}/renew: extends the lease from now (never past the license's end)
 * without re-activating and answers a fresh token. The license is judged again: a lapsed
 * subscription or a license past its grace stops renewing; disabling activations does not end
 * running sessions. A session that lost its seat (inactivity) takes one again if one is free.
 * Commonly one autocommit statement (contactWithoutLock); else one locking read and one write
 * (with the seat's events when it takes one again). The token is signed after the write, never
 * under the session's lock.
 */
export async function renewSession(ctx: DomainContext, sessionId: string) {
  assertSessionCaller(ctx, sessionId);
  const tenantId = ctx.tenantId;
  const fast = await contactWithoutLock(ctx, sessionId, "renew", now());
  const renewed = fast?.state
    ? { ...fast, state: fast.state }
    : await inSqlTransaction(ctx.db, tenantId, async (sql) => {
        const at = now();
        const live = await lockSessionForContact(sql, tenantId, sessionId, at);
        const { session, entitlement, claims, fingerprintHash, retakesSeat, routingKeys } = live;
        const state = licenseState(entitlement, durationMs(claims.gracePeriod), at);
        const terms = leaseTerms(entitlement, claims, "Online", state, at);
        const events =
          retakesSeat && routingKeys
            ? outboxRows(seatActivatedEvents(tenantId, routingKeys, session, fingerprintHash, at, false))
            : "[]";
        const updated = await touchSession(sql, tenantId, session.id, { at, ...terms }, events);
        return { ...live, session: updated, state };
      });
  const token = await issueLicenseToken(ctx.db, { tenantId, ...renewed });
  return { ...toSessionLeaseResponse(renewed.session, renewed.claims), token };
}
