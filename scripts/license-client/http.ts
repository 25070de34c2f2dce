import { ClientError, EXIT } from "./errors.ts";

/** A problem+json answer as the client sees it (SPEC.md "Errors"). */
export type Problem = { status: number; codeName?: string; title?: string; detail?: string };

const trimUrl = (url: string) => url.replace(/\/+$/, "");

/**
 * One JSON call to the service. A refusal becomes a ClientError whose exit code says what kind it
 * is: 401 → unauthorized, 409 license.no_active_session → noActiveSession, anything else → refused.
 */
export async function callJson<T>(baseUrl: string, method: string, path: string, options: { body?: unknown; token?: string } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let res: Response;
  try {
    res = await fetch(`${trimUrl(baseUrl)}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  } catch (error) {
    throw new ClientError(EXIT.unreachable, `Cannot reach ${baseUrl}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`);
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (res.ok) return parsed as T;
  const problem: Problem = typeof parsed === "object" && parsed !== null ? { ...(parsed as Problem), status: res.status } : { status: res.status, detail: text };
  const what = `${method} ${path}: ${res.status}${problem.codeName ? ` ${problem.codeName}` : ""}${problem.detail ? ` (${problem.detail})` : ""}`;
  if (res.status === 401) throw new ClientError(EXIT.unauthorized, `The server refused the license token: ${what}`, { problem });
  if (res.status === 409 && problem.codeName === "license.no_active_session") throw new ClientError(EXIT.noActiveSession, `The session is no longer active: ${what}`, { problem });
  throw new ClientError(EXIT.refused, `The server refused the request: ${what}`, { problem });
}

export const jwksUrl = (baseUrl: string, tenantId: string) => `${trimUrl(baseUrl)}/api/v1/provision/tenants/${encodeURIComponent(tenantId)}/jwks.json`;
