import type { DomainContext } from "../../context.ts";
import { inSqlTransaction, type SqlTx } from "../../../db/sql.ts";
import { now } from "../../../clock.ts";
import { outboxRows } from "../../webhooks/events/emit-event.ts";
import type { TSessionLeaseResponse } from "../activation/activation.schemas.ts";
import type { LicenseSession } from "../../../db/generated/client.ts";
import { seatReleasedEvents } from "./seat-events.ts";
import { assertSessionCaller, lockLiveSession, toSessionLeaseResponse } from "./session-access.ts";
import { RELEASE_SESSION } from "./session-sql.ts";

/**
 * Ends a live session (docs/api.md "States and transitions": seat released, `Entitlement.SeatReleased`):
 * one locking read with the routing keys, one write with the event.
 */
export async function releaseLockedSession(
  sql: SqlTx,
  tenantId: string,
  sessionId: string,
): Promise<TSessionLeaseResponse> {
  const at = now();
  const { session, claims, fingerprintHash, routingKeys } = await lockLiveSession(
    sql,
    tenantId,
    sessionId,
    at,
    { withRoutingKeys: true },
  );
  const events = seatReleasedEvents(
    tenantId,
    routingKeys!,
    [{ id: session.id, productIds: session.productIds, fingerprintHash }],
    at,
  );
  const [released] = await sql.queryAndCommit<LicenseSession>(RELEASE_SESSION, [
    tenantId,
    session.id,
    at,
    outboxRows(events),
  ]);
  return toSessionLeaseResponse(released, claims);
}

/** POST /activations/{sessionId}/release with the session's token. */
export async function releaseSession(ctx: DomainContext, sessionId: string): Promise<TSessionLeaseResponse> {
  assertSessionCaller(ctx, sessionId);
  return inSqlTransaction(ctx.db, ctx.tenantId, (sql) => releaseLockedSession(sql, ctx.tenantId, sessionId));
}
