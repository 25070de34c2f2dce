import type { DomainContext } from "../../context.ts";
import { inSqlTransaction } from "../../../db/sql.ts";
import { notFound } from "../../../core/errors.ts";
import type { TSessionLeaseResponse } from "../activation/activation.schemas.ts";
import { releaseLockedSession } from "./release-session.ts";

/**
 * Back office: staff free the seat of one live session of their tenant, as the application's own
 * release would (`Entitlement.SeatReleased`, the seat counts as free at once). Another tenant's
 * session is not found; an ended one is 409 `license.no_active_session`.
 */
export async function releaseStaffSession(
  ctx: DomainContext,
  sessionId: string,
): Promise<TSessionLeaseResponse> {
  const session = await ctx.db.licenseSession.findUnique({ where: { id: sessionId }, select: { id: true } });
  if (!session) throw notFound("Session");
  return inSqlTransaction(ctx.db, ctx.tenantId, (sql) => releaseLockedSession(sql, ctx.tenantId, sessionId));
}
