import { ClientError, EXIT } from "./errors.ts";

/** A problem+json answer as the client sees it (docs/api.md "Errors"). */
export type Problem = { status: number; codeName?: string; title?: string; detail?: string };

const trimUrl = (url: string) => url.replace(/\/+$/, "");

/** An answer of the service, whatever its status; `fail()` is the ClientError a refusal means. */
export type RawAnswer = { status: number; headers: Headers; body: unknown; fail: () => ClientError };

/**
 * A refusal as a ClientError whose exit code says what kind it is: 401 → unauthorized, 409
 * license.no_active_session → noActiveSession, anything else → refused.
 */
function refusal(method: string, path: string, status: number, parsed: unknown, text: string): ClientError {
  const problem: Problem =
    typeof parsed === "object" && parsed !== null
      ? { ...(parsed as Problem), status }
      : { status, detail: text };
  const what = `${method} ${path}: ${status}${problem.codeName ? ` ${problem.codeName}` : ""}${problem.detail ? ` (${problem.detail})` : ""}`;
  if (status === 401)
    return new ClientError(EXIT.unauthorized, `The server refused the license token: ${what}`, { problem });
  if (status === 409 && problem.codeName === "license.no_active_session")
    return new ClientError(EXIT.noActiveSession, `The session is no longer active: ${what}`, { problem });
  return new ClientError(EXIT.refused, `The server refused the request: ${what}`, { problem });
}

/** One JSON call to the service, answered whatever its status; only an unreachable server throws. */
export async function callRaw(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let res: Response;
  try {
    res = await fetch(`${trimUrl(baseUrl)}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch (error) {
    throw new ClientError(
      EXIT.unreachable,
      `Cannot reach ${baseUrl}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
    );
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return {
    status: res.status,
    headers: res.headers,
    body: parsed,
    fail: () => refusal(method, path, res.status, parsed, text),
  };
}

/** One JSON call to the service; a refusal becomes a ClientError (see `refusal`). */
export async function callJson<T>(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string } = {},
): Promise<T> {
  const answer = await callRaw(baseUrl, method, path, options);
  if (answer.status >= 200 && answer.status < 300) return answer.body as T;
  throw answer.fail();
}

export const jwksUrl = (baseUrl: string, tenantId: string) =>
  `${trimUrl(baseUrl)}/api/v1/provision/tenants/${encodeURIComponent(tenantId)}/jwks.json`;
