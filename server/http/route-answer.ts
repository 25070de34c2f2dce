import { AppError } from "../core/errors.ts";
import { databaseUnavailableError, isDatabaseUnavailable } from "../db/errors.ts";
import { logger } from "../log.ts";
import type { Contract } from "./contract.ts";
import type { StoredResponse } from "./idempotency.ts";
import { internalProblemAnswer, problemAnswer } from "./problem.ts";
import type { Answer } from "./route-request.ts";

/**
 * A handler may return its body, a Reply to choose the status or add headers, or a ready Response
 * for a body that is not JSON (a streamed CSV download); a Response skips response shaping.
 */
export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}
export const reply = (status: number, body?: unknown, headers?: Record<string, string>) =>
  new Reply(status, body, headers);

/** A handler's result shaped by the contract's response schema, as stored under an Idempotency-Key. */
export function serialize(
  contract: Contract,
  result: unknown,
): StoredResponse & { headers: Record<string, string> } {
  if (result instanceof Response) throw new Error(`${contract.path}: a streamed response cannot be stored`);
  const r = result instanceof Reply ? result : new Reply(contract.status ?? 200, result);
  if (r.status === 204 || r.body === undefined)
    return {
      status: r.status === 200 && r.body === undefined ? 204 : r.status,
      body: "",
      headers: r.headers,
    };
  const shaped = contract.response ? contract.response.parse(r.body) : r.body;
  return { status: r.status, body: JSON.stringify(shaped), headers: r.headers };
}

export function toAnswer(stored: StoredResponse, headers: Record<string, string>): Answer {
  return {
    status: stored.status,
    headers: stored.body ? { ...headers, "content-type": "application/json" } : headers,
    body: stored.status === 204 ? null : stored.body,
  };
}

/**
 * problem+json for every error: an AppError as it says, an unreachable database 503, anything
 * else is a bug: logged, answered 500 without details.
 */
export function errorAnswer(
  error: unknown,
  request: { path: string; method: string; route: string; correlationId: string; tenantId?: string },
  headers: Record<string, string>,
): { answer: Answer; codeName?: string } {
  const { path, correlationId, tenantId, route } = request;
  if (error instanceof AppError)
    return { answer: problemAnswer(error, path, correlationId, headers), codeName: error.codeName };
  if (isDatabaseUnavailable(error)) {
    // The database is restarting or unreachable: not a bug, and the same request will succeed.
    logger.warn({ err: error, correlationId, tenantId, route }, "database unavailable");
    const unavailable = databaseUnavailableError();
    return {
      answer: problemAnswer(unavailable, path, correlationId, headers),
      codeName: unavailable.codeName,
    };
  }
  logger.error({ err: error, correlationId, tenantId, route, method: request.method }, "unhandled error");
  return { answer: internalProblemAnswer(path, correlationId) };
}
