import { randomUUID } from "node:crypto";
import { z } from "zod";
import { db } from "../db/client.ts";
import { tenantDb } from "../db/tenant-db.ts";
import type { DomainContext } from "../domain/context.ts";
import { logger } from "../log.ts";
import { authenticate, type Principal } from "./auth.ts";
import type { Contract } from "./contract.ts";
import { AppError, validationError, type FieldIssue } from "./errors.ts";
import { requestHash, runIdempotent, ZIdempotencyKey, type StoredResponse } from "./idempotency.ts";
import { internalProblem, problemResponse } from "./problem.ts";

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export type HandlerInput<C extends Contract> = {
  /** Present for every authenticated route; anonymous routes get none. */
  ctx: C["auth"]["kind"] extends "anonymous" ? undefined : DomainContext;
  principal: Principal;
  params: Infer<C["params"]>;
  query: Infer<C["query"]>;
  body: Infer<C["body"]>;
  req: Request;
  correlationId: string;
};

/** A handler may return its body, or a Reply to choose the status or add headers. */
export class Reply {
  constructor(readonly status: number, readonly body?: unknown, readonly headers: Record<string, string> = {}) {}
}
export const reply = (status: number, body?: unknown, headers?: Record<string, string>) => new Reply(status, body, headers);

type RouteContext = { params: Promise<Record<string, string | string[]>> };

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const MAX_BODY_BYTES = 5 * 1024 * 1024;

export function zodIssues(error: z.ZodError, prefix: string): FieldIssue[] {
  return error.issues.map((issue) => ({ path: [prefix, ...issue.path.map(String)].filter(Boolean).join("."), message: issue.message }));
}

function parseWith<T extends z.ZodType>(schema: T | undefined, value: unknown, where: string): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = zodIssues(result.error, where);
    throw validationError(`Invalid ${where}: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, issues);
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

async function readJsonBody(req: Request): Promise<unknown> {
  const type = req.headers.get("content-type");
  const text = await req.text();
  if (text.length > MAX_BODY_BYTES) throw new AppError("request.payload_too_large", `Bodies are limited to ${MAX_BODY_BYTES} bytes.`);
  if (!text.trim()) return undefined;
  if (type && !/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
    throw new AppError("request.unsupported_media_type", "Request bodies are JSON (Content-Type: application/json).");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw validationError("The request body is not valid JSON.");
  }
}

function correlationIdOf(req: Request): string {
  const given = req.headers.get("x-correlation-id");
  return given && /^[\x21-\x7e]{1,200}$/.test(given) ? given : randomUUID();
}

function serialize(contract: Contract, result: unknown): StoredResponse & { headers: Record<string, string> } {
  const r = result instanceof Reply ? result : new Reply(contract.status ?? 200, result);
  if (r.status === 204 || r.body === undefined) return { status: r.status === 200 && r.body === undefined ? 204 : r.status, body: "", headers: r.headers };
  const shaped = contract.response ? contract.response.parse(r.body) : r.body;
  return { status: r.status, body: JSON.stringify(shaped), headers: r.headers };
}

function toResponse(stored: StoredResponse, headers: Record<string, string>): Response {
  const h = new Headers(headers);
  if (stored.body) h.set("content-type", "application/json");
  return new Response(stored.status === 204 ? null : stored.body, { status: stored.status, headers: h });
}

/**
 * The one REST wrapper (DESIGN.md section 6): correlation id, authentication and scope, zod parse
 * of params/query/body, idempotency, the handler, response shaping, and problem+json for every
 * error. Anything that is not an AppError is a bug: logged, answered 500 without details.
 */
export function route<C extends Contract>(contract: C, handler: (input: HandlerInput<C>) => Promise<unknown>) {
  return async function handle(req: Request, routeContext: RouteContext): Promise<Response> {
    const started = performance.now();
    const url = new URL(req.url);
    const correlationId = correlationIdOf(req);
    const baseHeaders = { "x-correlation-id": correlationId };
    let tenantId: string | undefined;
    let response: Response;
    try {
      const principal = await authenticate(req, contract.auth);
      tenantId = principal.kind === "anonymous" ? undefined : principal.tenantId;
      const params = parsePathParams(contract, await routeContext.params);
      const query = parseWith(contract.query, queryObject(url), "query");
      const rawBody = MUTATING.has(req.method) ? await readJsonBody(req) : undefined;
      const body = parseWith(contract.body, rawBody ?? (contract.body ? {} : undefined), "body");
      const scoped = tenantId ? tenantDb(db(), tenantId) : undefined;
      const ctxFor = (dbOrTx: DomainContext["db"]): DomainContext | undefined =>
        principal.kind === "anonymous" || !tenantId
          ? undefined
          : {
              tenantId,
              db: dbOrTx,
              correlationId,
              actor:
                principal.kind === "client"
                  ? { kind: "client", id: principal.id, clientId: principal.clientId, clientKind: principal.clientKind }
                  : principal.kind === "license"
                    ? { kind: "license", id: principal.id }
                    : { kind: "user", id: principal.id },
            };
      const invoke = async (dbOrTx: DomainContext["db"] | undefined) => {
        const input = { ctx: dbOrTx ? ctxFor(dbOrTx) : undefined, principal, params, query, body, req, correlationId } as HandlerInput<C>;
        return serialize(contract, await handler(input));
      };

      const idempotencyKey = req.headers.get("idempotency-key");
      if (idempotencyKey !== null && MUTATING.has(req.method) && scoped && tenantId && principal.kind !== "anonymous") {
        const key = ZIdempotencyKey.safeParse(idempotencyKey);
        if (!key.success) throw validationError(key.error.issues[0].message, [{ path: "header.Idempotency-Key", message: key.error.issues[0].message }]);
        let headers: Record<string, string> = {};
        const stored = await runIdempotent(
          scoped,
          { tenantId, credentialId: `${principal.kind}:${principal.id}`, key: key.data, hash: requestHash(req.method, url.pathname, rawBody) },
          async (tx) => {
            const result = await invoke(tx);
            headers = result.headers;
            return result;
          },
        );
        response = toResponse(stored, { ...baseHeaders, ...headers, ...(stored.replayed ? { "idempotent-replayed": "true" } : {}) });
      } else {
        const result = await invoke(scoped);
        response = toResponse(result, { ...baseHeaders, ...result.headers });
      }
    } catch (error) {
      if (error instanceof AppError) {
        response = problemResponse(error, url.pathname, correlationId, baseHeaders);
      } else {
        logger.error({ err: error, correlationId, tenantId, route: contract.path, method: req.method }, "unhandled error");
        response = internalProblem(url.pathname, correlationId);
        response.headers.set("x-correlation-id", correlationId);
      }
    }
    logger.info(
      { correlationId, tenantId, method: req.method, route: contract.path, status: response.status, ms: Math.round(performance.now() - started) },
      "request",
    );
    return response;
  };
}
