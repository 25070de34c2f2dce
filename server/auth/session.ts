import { getServerSession, type Session } from "next-auth";
import { redirect } from "next/navigation";
import type { UserKind } from "../domain/identity/users.ts";
import { authOptions, signInPage } from "./options.ts";
import { db } from "../db/client.ts";
import { signedInUser } from "../domain/identity/staff-roles/staff-users.ts";
import { sessionStillValid } from "../domain/identity/profile/other-sessions.ts";

/**
 * The signed-in user's session, or null (also null for a token missing its tenant). The session
 * cookie lives 8 hours, so the user row is read on every request: a disabled user's session ends
 * at their next request, and a staff role change applies at once, and a session
 * ended by "sign out of other sessions" or a password change ends at its next request.
 */
export async function currentSession(): Promise<Session | null> {
  const session = await getServerSession(authOptions);
  if (!session?.userId || !session.tenantId) return null;
  const user = await signedInUser(db(), session.tenantId, session.userId);
  if (!user || user.kind !== session.kind) return null;
  if (!sessionStillValid(user, session)) return null;
  // The name as the user last saved it (profile), not as it was at sign-in.
  return { ...session, name: user.name, staffRole: user.staffRole };
}

/**
 * For layouts and pages: the session of a user of `kind`, or a redirect to that kind's sign-in
 * page. A staff user never gets into the portal and a consumer never into the back office.
 */
export async function requireUser(kind: UserKind): Promise<Session> {
  const session = await currentSession();
  if (!session) redirect(signInPage[kind]);
  if (session.kind !== kind) redirect(`${signInPage[kind]}?refused=${session.kind}`);
  return session;
}
