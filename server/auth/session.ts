import { getServerSession, type Session } from "next-auth";
import { redirect } from "next/navigation";
import type { UserKind } from "../domain/identity/users.ts";
import { authOptions, signInPage } from "./options.ts";

/** The signed-in user's session, or null (also null for a token missing its tenant). */
export async function currentSession(): Promise<Session | null> {
  const session = await getServerSession(authOptions);
  return session?.userId && session.tenantId ? session : null;
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
