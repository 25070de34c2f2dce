import type { DomainContext } from "../../context.ts";
import { now } from "../../../clock.ts";

/**
 * UI sessions are signed cookies (next-auth JWT), so one cannot be deleted: instead the user row
 * says which sessions still count. "Sign out of other sessions" (and a password change) sets
 * sessionsValidFrom to now and keeps the session that asked; every session signed in before that
 * instant, other than the kept one, ends at its next request.
 */
export function sessionStillValid(
  user: { sessionsValidFrom: Date | null; keptSessionId: string | null },
  session: { sessionId: string; signedInAt: number },
): boolean {
  if (!user.sessionsValidFrom) return true;
  if (session.sessionId && session.sessionId === user.keptSessionId) return true;
  return session.signedInAt >= user.sessionsValidFrom.getTime();
}

/** Ends the signed-in user's other UI sessions; `keepSessionId` (the caller's) stays signed in. */
export async function signOutOtherSessions(ctx: DomainContext, keepSessionId: string) {
  await ctx.db.user.update({
    where: { id: ctx.actor.id },
    data: { sessionsValidFrom: now(), keptSessionId: keepSessionId || null },
  });
  return { signedOutOthers: true as const };
}
