import { baseUrl } from "./api.ts";

/** The `name=value` part of each Set-Cookie line, joined for a Cookie header. */
const cookieHeader = (setCookies: string[]) => setCookies.map((line) => line.split(";")[0]).join("; ");

export type UiSession = {
  /** Cookie header carrying the next-auth session (and CSRF) cookies. */
  cookie: string;
  /** The Set-Cookie lines the sign-in answered, attributes included. */
  setCookies: string[];
};

/**
 * One sign-in attempt through next-auth's credentials flow over HTTP, as the sign-in forms make it:
 * GET /api/auth/csrf, then POST /api/auth/callback/{kind} with the CSRF token. `error` is what the
 * form would be told (next-auth's `error` parameter), null when a session cookie was set.
 */
export async function uiSignInAttempt(
  kind: "staff" | "consumer",
  credentials: { email: string; password: string; tenant?: string },
  options: { base?: string; headers?: Record<string, string> } = {},
): Promise<UiSession & { status: number; error: string | null }> {
  const base = options.base ?? baseUrl();
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookies = csrf.headers.getSetCookie();
  const res = await fetch(`${base}/api/auth/callback/${kind}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: cookieHeader(csrfCookies),
      ...options.headers,
    },
    body: new URLSearchParams({ csrfToken, json: "true", ...credentials }).toString(),
  });
  const setCookies = res.headers.getSetCookie();
  const text = await res.text();
  const signedIn = setCookies.some((line) => /next-auth\.session-token=/.test(line));
  let error: string | null = signedIn ? null : `no session (${res.status}): ${text}`;
  if (!signedIn) {
    try {
      const { url } = JSON.parse(text) as { url?: string };
      error = (url && new URL(url, base).searchParams.get("error")) || error;
    } catch {
      // Not next-auth's JSON answer: keep the status and body as the error.
    }
  }
  return { cookie: cookieHeader([...csrfCookies, ...setCookies]), setCookies, status: res.status, error };
}

/** Signs a user in (uiSignInAttempt) and fails unless a session cookie was set. */
export async function uiSignIn(
  kind: "staff" | "consumer",
  credentials: { email: string; password: string; tenant?: string },
  base = baseUrl(),
): Promise<UiSession> {
  const attempt = await uiSignInAttempt(kind, credentials, { base });
  if (attempt.error !== null) throw new Error(`sign-in failed: ${attempt.error}`);
  return { cookie: attempt.cookie, setCookies: attempt.setCookies };
}

/** A tRPC query over HTTP (GET /api/trpc/{path}, no batching, plain JSON). */
export async function trpcQuery<T = unknown>(
  path: string,
  input: unknown,
  cookie: string,
): Promise<{ status: number; data?: T; error?: { message: string; data?: { code?: string } } }> {
  const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const res = await fetch(`${baseUrl()}/api/trpc/${path}${query}`, { headers: { cookie } });
  const body = (await res.json()) as { result?: { data: T }; error?: { message: string } };
  return { status: res.status, data: body.result?.data, error: body.error };
}

/** A tRPC mutation over HTTP (POST /api/trpc/{path}, no batching, plain JSON). */
export async function trpcMutation<T = unknown>(
  path: string,
  input: unknown,
  cookie: string,
): Promise<{
  status: number;
  data?: T;
  error?: { message: string; data?: { code?: string; problem?: { codeName?: string } | null } };
}> {
  const res = await fetch(`${baseUrl()}/api/trpc/${path}`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify(input ?? null),
  });
  const body = (await res.json()) as { result?: { data: T }; error?: { message: string } };
  return { status: res.status, data: body.result?.data, error: body.error };
}
