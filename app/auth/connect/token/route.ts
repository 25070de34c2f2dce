import { db } from "@/server/db/client";
import { issueToken, OAuthError, type TokenRequest } from "@/server/domain/identity/issue-token";
import { logger } from "@/server/log";

const noStore = { "cache-control": "no-store", pragma: "no-cache" };

function oauthError(error: OAuthError): Response {
  const headers: Record<string, string> = { "content-type": "application/json", ...noStore };
  if (error.status === 401) headers["www-authenticate"] = 'Basic realm="token"';
  return new Response(JSON.stringify({ error: error.error, error_description: error.description }), { status: error.status, headers });
}

/** Client credentials may come in the form or as HTTP Basic (RFC 6749 section 2.3.1). */
function basicCredentials(req: Request): Pick<TokenRequest, "client_id" | "client_secret"> {
  const header = req.headers.get("authorization");
  const match = header && /^Basic\s+(\S+)$/i.exec(header);
  if (!match) return {};
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return {};
  return { client_id: decodeURIComponent(decoded.slice(0, colon)), client_secret: decodeURIComponent(decoded.slice(colon + 1)) };
}

// POST /auth/connect/token (form-encoded)
export async function POST(req: Request): Promise<Response> {
  try {
    if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers.get("content-type") ?? "")) {
      throw new OAuthError("invalid_request", "The token request is form-encoded (application/x-www-form-urlencoded).");
    }
    const form = Object.fromEntries(new URLSearchParams(await req.text())) as TokenRequest;
    const result = await issueToken(db(), { ...basicCredentials(req), ...form });
    return new Response(JSON.stringify(result), { status: 200, headers: { "content-type": "application/json", ...noStore } });
  } catch (error) {
    if (error instanceof OAuthError) return oauthError(error);
    logger.error({ err: error }, "token endpoint failed");
    return new Response(JSON.stringify({ error: "server_error", error_description: "An unexpected error occurred." }), {
      status: 500,
      headers: { "content-type": "application/json", ...noStore },
    });
  }
}
