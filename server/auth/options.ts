import type { AuthOptions, User } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { db } from "../db/client.ts";
import { authenticateUser, emailKey, type UserKind } from "../domain/identity/users.ts";
import { servedOverHttps } from "../config.ts";
import { hitRateLimits } from "../domain/rate-limits/hit-rate-limits.ts";
import { callerIp } from "../core/caller-address.ts";

/** The error a sign-in form receives when the email has accounts with several vendors. */
export const CHOOSE_TENANT = "choose-tenant";
/** The error a sign-in form receives while its email and address back off: `rate-limited:<seconds>`. */
export const RATE_LIMITED = "rate-limited";

/**
 * docs/security.md "Rate limits": failed passwords per (kind, email, address), read before the
 * password is checked and counted when it fails, like failed client secrets on the token endpoint.
 * The address is part of the key so a stranger cannot lock a user out.
 */
function signInLimits(kind: UserKind, email: string, headers: Record<string, unknown> | undefined) {
  const address = callerIp({ headers: new Headers(headers as Record<string, string>) }) ?? "unknown";
  const key = `${kind}|${emailKey(email)}|${address}`;
  return {
    retryAfter: async () => {
      const [state] = await hitRateLimits({}, [{ name: "signin.failed_password", key, cost: 0 }]);
      return state?.exceeded ? state.resetSeconds : null;
    },
    failed: () => hitRateLimits({}, [{ name: "signin.failed_password", key }]),
  };
}

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
      const limits = signInLimits(kind, email, req?.headers);
      const retryAfter = await limits.retryAfter();
      if (retryAfter !== null) throw new Error(`${RATE_LIMITED}:${retryAfter}`);
      const result = await authenticateUser(db(), {
        email,
        password,
        kind,
        tenant: credentials?.tenant?.trim() || null,
      });
      // next-auth hands a thrown message to the form as `error`; null becomes "CredentialsSignin".
      if (!result.ok) {
        if (result.reason === "choose-tenant") throw new Error(CHOOSE_TENANT);
        await limits.failed();
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
        // Filled from the database by currentSession on every request, never from the cookie.
        staffRole: null,
      };
    },
  },
};
