import { db } from "@/server/db/client";
import { databaseUnavailableError, isDatabaseUnavailable } from "@/server/db/errors";
import { issueToken } from "@/server/domain/cross-tenant";
import { OAuthError, type TokenRequest } from "@/server/domain/identity/issue-token";
import { logger } from "@/server/log";
import { AppError } from "@/server/core/errors";
import { BODY_LIMITS, readBodyText } from "@/server/http/body";
import { PROBLEM_CONTENT_TYPE, toProblem } from "@/server/http/problem";
import { assertWithinRateLimits, rateLimitHeaders } from "@/server/http/rate-limit";
import { callerIp } from "@/server/core/caller-address";
import { testClockOf } from "@/server/http/test-clock";
import { runAtClock } from "@/server/clock";
import {
  credentialKey,
  reserveCredentialAttempt,
  type CredentialIdentity,
} from "@/server/domain/identity/credential-attempts";

const noStore = { "cache-control": "no-store", pragma: "no-cache" };

function oauthError(error: OAuthError, status = error.status, extra: Record<string, string> = {}): Response {
  const headers: Record<string, string> = { "content-type": "application/json", ...noStore, ...extra };
  if (status === 401) headers["www-authenticate"] = 'Basic realm="token"';
  return new Response(JSON.stringify({ error: error.error, error_description: error.description }), {
    status,
    headers,
  });
}

/** A %-escape that does not decode makes the request malformed (RFC 6749 section 2.3.1 escapes both parts). */
function formDecoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new OAuthError("invalid_request", "The Basic credentials are not validly form-encoded.");
  }
}

/** Client credentials may come in the form or as HTTP Basic (RFC 6749 section 2.3.1). */
function basicCredentials(req: Request): Pick<TokenRequest, "client_id" | "client_secret"> {
  const header = req.headers.get("authorization");
  const match = header && /^Basic\s+(\S+)$/i.exec(header);
  if (!match) return {};
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return {};
  return {
    client_id: formDecoded(decoded.slice(0, colon)),
    client_secret: formDecoded(decoded.slice(colon + 1)),
  };
}

/**
 * docs/security.md "Rate limits" and "Round 3": token requests per client (or user), and the
 * back-off on failed credentials, both keyed by the identity the check verifies (the client id, or
 * the user's canonical email) and counted before the check (credential-attempts.ts), so neither
 * another spelling nor a parallel burst gets more guesses. A refusal is 429 problem+json
 * (`request.rate_limited`) that also carries RFC 6749's `error` member, so OAuth libraries show a
 * reason.
 */
function tokenCredential(form: TokenRequest): CredentialIdentity | null {
  if (form.grant_type === "password")
    return form.username ? { kind: "password", userKind: "consumer", email: form.username } : null;
  return form.client_id ? { kind: "client-secret", clientId: form.client_id } : null;
}

/**
 * A refusal that is not the client's fault (429, or 503 while the database is away) is
 * problem+json that also carries RFC 6749's `error` member, so OAuth libraries show a reason.
 */
function problemWithOAuthError(error: AppError, oauthError: string, req: Request): Response {
  const problem = toProblem(error, new URL(req.url).pathname);
  return new Response(JSON.stringify({ ...problem, error: oauthError, error_description: problem.detail }), {
    status: error.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, ...noStore, ...(error.headers ?? {}) },
  });
}

// POST /auth/connect/token (form-encoded); the test clock moves its rate-limit windows in tests.
export function POST(req: Request): Promise<Response> {
  const at = testClockOf(req);
  return at ? runAtClock(at, () => token(req)) : token(req);
}

async function token(req: Request): Promise<Response> {
  let limitHeaders: Record<string, string> = {};
  try {
    if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers.get("content-type") ?? "")) {
      throw new OAuthError(
        "invalid_request",
        "The token request is form-encoded (application/x-www-form-urlencoded).",
      );
    }
    const form = Object.fromEntries(
      new URLSearchParams(await readBodyText(req, BODY_LIMITS.anonymous)),
    ) as TokenRequest;
    const request = { ...basicCredentials(req), ...form };
    const identity = tokenCredential(request);
    const attempt = identity
      ? await reserveCredentialAttempt(identity, callerIp(req), [
          { name: "token.client", key: credentialKey(identity) },
        ])
      : null;
    limitHeaders = rateLimitHeaders(attempt?.states ?? []);
    assertWithinRateLimits(attempt?.states ?? [], limitHeaders);
    let result;
    try {
      result = await issueToken(db(), request);
    } catch (error) {
      const failed = error instanceof OAuthError && ["invalid_client", "invalid_grant"].includes(error.error);
      if (attempt) limitHeaders = rateLimitHeaders(await attempt.settle(failed ? "failed" : "not-failed"));
      throw error;
    }
    if (attempt) limitHeaders = rateLimitHeaders(await attempt.settle("not-failed"));
    return new Response(JSON.stringify(result), {
      status: 200,
      headers: { "content-type": "application/json", ...noStore, ...limitHeaders },
    });
  } catch (error) {
    if (error instanceof OAuthError) return oauthError(error, error.status, limitHeaders);
    if (error instanceof AppError && error.codeName === "request.rate_limited")
      return problemWithOAuthError(error, "rate_limited", req);
    if (isDatabaseUnavailable(error)) {
      logger.warn({ err: error }, "database unavailable");
      return problemWithOAuthError(databaseUnavailableError(), "temporarily_unavailable", req);
    }
    if (error instanceof AppError && error.codeName === "request.payload_too_large")
      return oauthError(new OAuthError("invalid_request", error.message), error.status, error.headers);
    logger.error({ err: error }, "token endpoint failed");
    return new Response(
      JSON.stringify({ error: "server_error", error_description: "An unexpected error occurred." }),
      {
        status: 500,
        headers: { "content-type": "application/json", ...noStore },
      },
    );
  }
}
