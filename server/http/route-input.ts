import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { AppError, validationError } from "../core/errors.ts";
import { zodIssues } from "../core/zod-issues.ts";
import { bodyLimitOf, parseJsonText, readBodyText } from "./body.ts";
import type { Contract } from "./contract.ts";
import type { RouteRequest } from "./route-request.ts";

/** The REST wrapper's first step after authentication: the request's params, query and body, parsed by the contract's zod schemas. */

export const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function correlationIdOf(req: RouteRequest): string {
  const given = req.headers.get("x-correlation-id");
  return given && /^[\x21-\x7e]{1,200}$/.test(given) ? given : randomUUID();
}

function parseWith<T extends z.ZodType>(schema: T | undefined, value: unknown, where: string): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = zodIssues(result.error, where);
    throw validationError(
      `Invalid ${where}: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
      issues,
    );
  }
  return result.data;
}

/** A path id that cannot exist (not a UUID, say) is simply not found, like any unknown id. */
function parsePathParams(contract: Contract, raw: Record<string, string | string[]>): unknown {
  if (!contract.params) return undefined;
  const result = contract.params.safeParse(raw);
  if (!result.success) throw new AppError("license.not_found", "No such resource.");
  return result.data;
}

function queryObject(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of url.searchParams) {
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

async function readJsonBody(req: RouteRequest, limit: number): Promise<unknown> {
  const type = req.headers.get("content-type");
  const text = await readBodyText(req, limit);
  if (!text.trim()) return undefined;
  if (type && !/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
    throw new AppError(
      "request.unsupported_media_type",
      "Request bodies are JSON (Content-Type: application/json).",
    );
  }
  return parseJsonText(text);
}

/** The parsed input; `rawBody` is what the Idempotency-Key's request hash covers. */
export async function parseRouteInput(
  contract: Contract,
  req: RouteRequest,
  url: URL,
  rawParams: Record<string, string | string[]>,
) {
  const params = parsePathParams(contract, rawParams);
  const query = parseWith(contract.query, queryObject(url), "query");
  const rawBody = MUTATING.has(req.method) ? await readJsonBody(req, bodyLimitOf(contract)) : undefined;
  const body = parseWith(contract.body, rawBody ?? (contract.body ? {} : undefined), "body");
  return { params, query, rawBody, body };
}
