import type { AuthOptions, User } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { db } from "../db/client.ts";
import { authenticateUser, type SignInResult, type UserKind } from "../domain/identity/users.ts";
import { servedOverHttps } from "../config.ts";
import { reserveCredentialAttempt } from "../domain/identity/credential-attempts.ts";
import { callerIp } from "../core/caller-address.ts";
import { randomUUID } from "node:crypto";
import { now } from "../clock.ts";

/** The error a sign-in form receives when the email has accounts with several vendors. */
export const CHOOSE_TENANT = "choose-tenant";
/** The error a sign-in form receives while its email and address back off: `rate-limited:<seconds>`. */
export const RATE_LIMITED = "rate-limited";
/** The error a portal sign-in form receives when every customer record of the login is blocked. */
export const USER_BLOCKED = "blocked";

/** Sign-in page of each kind of user: staff use the back office, consumers the portal. */
export const signInPage: Record<UserKind, string> = { staff: "/admin/sign-in", consumer: "/portal/sign-in" };
export const homePage: Record<UserKind, string> = { staff: "/admin", consumer: "/portal" };

const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

function credentialsFor(kind: UserKind) {
  return CredentialsProvider({
    id: kind,
    name: kind === "staff" ? "Vendor staff" : "Customer",
    credentials: {
      email: { label: "Email", type: "email" },
      password: { label: "Password", type: "password" },
      tenant: { label: "Organisation id", type: "text" },
    },
    async authorize(credentials, req): Promise<User | null> {
      const email = credentials?.email?.trim();
      const password = credentials?.password;
      if (!email || !password) return null;
      // docs/security.md "Rate limits" and "Round 3": failed passwords per (kind, canonical email,
      // address), counted before the password is checked (credential-attempts.ts). The address is
      // part of the key so a stranger cannot lock a user out.
      const address = callerIp({ headers: new Headers(req?.headers as Record<string, string>) });
      const attempt = await reserveCredentialAttempt({ kind: "password", userKind: kind, email }, address);
      if (attempt.refused) throw new Error(`${RATE_LIMITED}:${attempt.refused.resetSeconds}`);
      let result: SignInResult;
      try {
        result = await authenticateUser(db(), {
          email,
          password,
          kind,
          tenant: credentials?.tenant?.trim() || null,
        });
      } catch (error) {
        await attempt.settle("not-failed");
        throw error;
      }
      await attempt.settle(!result.ok && result.reason === "invalid" ? "failed" : "not-failed");
      // next-auth hands a thrown message to the form as `error`; null becomes "CredentialsSignin".
      if (!result.ok) {
        if (result.reason === "choose-tenant") throw new Error(CHOOSE_TENANT);
        if (result.reason === "blocked") throw new Error(USER_BLOCKED);
        return null;
      }
      const { user } = result;
      return {
        id: user.id,
        email: user.email,
        name: user.name,
        tenantId: user.tenantId,
        tenantName: user.tenantName,
        tenantSlug: user.tenantSlug,
        kind: user.kind,
        roles: user.roles,
      };
    },
  });
}

export const authOptions: AuthOptions = {
  secret: process.env.NEXTAUTH_SECRET,
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  // next-auth looks at NEXTAUTH_URL only; behind an https PUBLIC_URL the cookies must be Secure too.
  useSecureCookies: servedOverHttps(),
  providers: [credentialsFor("staff"), credentialsFor("consumer")],
  pages: { signIn: signInPage.staff, error: signInPage.staff },
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.userId = user.id;
        token.tenantId = user.tenantId;
        token.tenantName = user.tenantName;
        token.tenantSlug = user.tenantSlug;
        token.kind = user.kind;
        token.roles = user.roles;
        token.email = user.email;
        token.name = user.name;
        // Which sign-in this is, and when: "sign out of other sessions" ends the others by them.
        token.sessionId = randomUUID();
        token.signedInAt = now().getTime();
      }
      return token;
    },
    session({ session, token }) {
      return {
        expires: session.expires,
        user: { name: token.name, email: token.email },
        userId: token.userId ?? "",
        tenantId: token.tenantId ?? "",
        tenantName: token.tenantName ?? "",
        tenantSlug: token.tenantSlug ?? "",
        kind: token.kind ?? "consumer",
        email: token.email ?? "",
        name: token.name ?? "",
        roles: token.roles ?? [],
        sessionId: token.sessionId ?? "",
        signedInAt: token.signedInAt ?? 0,
        // Filled from the database by currentSession on every request, never from the cookie.
        staffRole: null,
      };
    },
  },
};
