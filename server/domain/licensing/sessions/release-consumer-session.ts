import type { DomainContext } from "../../context.ts";
import { inSqlTransaction } from "../../../db/sql.ts";
import type { TSessionLeaseResponse } from "../activation/activation.schemas.ts";
import { findConsumerSession } from "./consumer-session-scope.ts";
import { releaseLockedSession } from "./release-session.ts";

/**
 * POST /consumer/me/sessions/{sessionId}/release: the signed-in user frees the seat of one of their
 * sessions, as the application's own release would (`Entitlement.SeatReleased`). Another user's
 * session is not found; an ended one is 409 `license.no_active_session`.
 */
export async function releaseConsumerSession(
  ctx: DomainContext,
  sessionId: string,
): Promise<TSessionLeaseResponse> {
  await findConsumerSession(ctx, sessionId);
  return inSqlTransaction(ctx.db, ctx.tenantId, (sql) => releaseLockedSession(sql, ctx.tenantId, sessionId));
}
