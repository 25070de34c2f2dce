import { randomUUID } from "node:crypto";
import { z } from "zod";
import { db } from "../db/client.ts";
import type { ActivationCode } from "../db/generated/client.ts";
import { tenantDb } from "../db/tenant-db.ts";
import type { DomainContext } from "../domain/context.ts";
import { logger } from "../log.ts";
import { authenticate, type Principal } from "./auth.ts";
import type { Contract } from "./contract.ts";
import { AppError, validationError } from "../core/errors.ts";
import { zodIssues } from "../core/zod-issues.ts";
import { requestHash, runIdempotent, ZIdempotencyKey, type StoredResponse } from "./idempotency.ts";
import { internalProblemAnswer, problemAnswer } from "./problem.ts";
import { answerResponse, type Answer, type RouteRequest } from "./route-request.ts";
import { bodyLimitOf, parseJsonText, readBodyText } from "./body.ts";
import { testClockOf } from "./test-clock.ts";
import { now, runAtClock } from "../clock.ts";
import { observeRoute } from "./metrics.ts";
import { runAudited } from "../db/audit-context.ts";
import { enforceRouteRateLimits, pendingRouteRateLimits } from "./rate-limit.ts";
import { countedRateLimits, type PendingRateLimits } from "../domain/rate-limits/hit-rate-limits.ts";
import { databaseUnavailableError, isDatabaseUnavailable } from "../db/errors.ts";

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export type HandlerInput<C extends Contract> = {
  /** Present for every authenticated route; anonymous routes get none. */
  ctx: C["auth"]["kind"] extends "anonymous" ? undefined : DomainContext;
  principal: Principal;
  params: Infer<C["params"]>;
  query: Infer<C["query"]>;
  body: Infer<C["body"]>;
  req: RouteRequest;
  correlationId: string;
  /**
   * Rows the wrapper's rate-limit statement already read: the activation code the body names
   * (null: no such code; undefined: not read, the handler reads it itself).
   */
  read: { activationCode?: ActivationCode | null };
  /** The route's limits when its contract has the handler count them; else already counted. */
  rateLimits: PendingRateLimits;
};

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

type RouteContext = { params: Promise<Record<string, string | string[]>> };

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

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

function correlationIdOf(req: RouteRequest): string {
  const given = req.headers.get("x-correlation-id");
  return given && /^[\x21-\x7e]{1,200}$/.test(given) ? given : randomUUID();
}

function serialize(
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

function toAnswer(stored: StoredResponse, headers: Record<string, string>): Answer {
  return {
    status: stored.status,
    headers: stored.body ? { ...headers, "content-type": "application/json" } : headers,
    body: stored.status === 204 ? null : stored.body,
  };
}

/**
 * The one REST wrapper (DESIGN.md section 6): correlation id, authentication and scope, zod parse
 * of params/query/body, idempotency, the handler, response shaping, and problem+json for every
 * error. Anything that is not an AppError is a bug: logged, answered 500 without details.
 */
export function route<C extends Contract>(
  contract: C,
  handler: (input: HandlerInput<C>) => Promise<unknown>,
) {
  const handle = async (req: RouteRequest, routeContext: RouteContext): Promise<Answer | Response> => {
    const started = performance.now();
    const url = new URL(req.url);
    const correlationId = correlationIdOf(req);
    const baseHeaders: Record<string, string> = { "x-correlation-id": correlationId };
    let tenantId: string | undefined;
    let parsedBody: unknown;
    let codeName: string | undefined;
    let response: Answer | Response;
    try {
      const principal = await authenticate(req, contract.auth);
      tenantId = principal.kind === "anonymous" ? undefined : principal.tenantId;
      const params = parsePathParams(contract, await routeContext.params);
      const query = parseWith(contract.query, queryObject(url), "query");
      const rawBody = MUTATING.has(req.method) ? await readJsonBody(req, bodyLimitOf(contract)) : undefined;
      const body = parseWith(contract.body, rawBody ?? (contract.body ? {} : undefined), "body");
      parsedBody = body;
      const read: HandlerInput<C>["read"] = {};
      const pendingLimits =
        contract.rateLimits && contract.rateLimitsCountedByHandler
          ? pendingRouteRateLimits(contract.rateLimits, req, principal, body, baseHeaders)
          : undefined;
      if (contract.rateLimits && !pendingLimits) {
        const limited = await enforceRouteRateLimits(contract.rateLimits, req, principal, body);
        Object.assign(baseHeaders, limited.headers);
        read.activationCode = limited.activationCode;
      }
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
                  ? {
                      kind: "client",
                      id: principal.id,
                      clientId: principal.clientId,
                      clientKind: principal.clientKind,
                    }
                  : principal.kind === "license"
                    ? { kind: "license", id: principal.id, entitlementId: principal.claims.ent }
                    : { kind: "user", id: principal.id },
            };
      const invoke = async (dbOrTx: DomainContext["db"] | undefined): Promise<unknown> => {
        const input = {
          ctx: dbOrTx ? ctxFor(dbOrTx) : undefined,
          principal,
          params,
          query,
          body,
          req,
          correlationId,
          read,
          rateLimits: pendingLimits ?? countedRateLimits,
        } as HandlerInput<C>;
        let out: unknown;
        try {
          out = await handler(input);
        } catch (error) {
          // Refused before it counted (a token of another session, say): counted all the same,
          // and over a limit the answer is 429, as when the wrapper counts first.
          await pendingLimits?.enforce();
          throw error;
        }
        if (pendingLimits && !pendingLimits.settled)
          throw new Error(`${contract.path}: the handler did not count the request's rate limits`);
        return out;
      };

      const execute = async (): Promise<Answer | Response> => {
        let response: Answer | Response;
        const idempotencyKey = req.headers.get("idempotency-key");
        if (
          idempotencyKey !== null &&
          MUTATING.has(req.method) &&
          scoped &&
          tenantId &&
          principal.kind !== "anonymous"
        ) {
          const key = ZIdempotencyKey.safeParse(idempotencyKey);
          if (!key.success)
            throw validationError(key.error.issues[0].message, [
              { path: "header.Idempotency-Key", message: key.error.issues[0].message },
            ]);
          let headers: Record<string, string> = {};
          const stored = await runIdempotent(
            scoped,
            {
              tenantId,
              credentialId: `${principal.kind}:${principal.id}`,
              key: key.data,
              hash: requestHash(req.method, url.pathname, rawBody),
            },
            async (tx) => {
              const result = serialize(contract, await invoke(tx));
              headers = result.headers;
              return result;
            },
          );
          response = toAnswer(stored, {
            ...baseHeaders,
            ...headers,
            ...(stored.replayed ? { "idempotent-replayed": "true" } : {}),
          });
        } else {
          const out = await invoke(scoped);
          if (out instanceof Response) {
            for (const [name, value] of Object.entries(baseHeaders)) out.headers.set(name, value);
            response = out;
          } else {
            const result = serialize(contract, out);
            response = toAnswer(result, { ...baseHeaders, ...result.headers });
          }
        }
        return response;
      };
      // Mutations of API clients and signed-in users are audited in their own transactions
      // (server/db/audit-context.ts); license-session calls are recorded by their events instead.
      response =
        MUTATING.has(req.method) && (principal.kind === "client" || principal.kind === "consumer")
          ? await runAudited(
              {
                actorKind: principal.kind === "client" ? "client" : "user",
                actorId: principal.id,
                actorLabel: principal.kind === "client" ? principal.clientId : null,
                source: "rest",
                operation: `${req.method} ${contract.path}`,
                correlationId,
                at: now().toISOString(),
              },
              execute,
            )
          : await execute();
    } catch (error) {
      if (error instanceof AppError) {
        codeName = error.codeName;
        response = problemAnswer(error, url.pathname, correlationId, baseHeaders);
      } else if (isDatabaseUnavailable(error)) {
        // The database is restarting or unreachable: not a bug, and the same request will succeed.
        logger.warn({ err: error, correlationId, tenantId, route: contract.path }, "database unavailable");
        const unavailable = databaseUnavailableError();
        codeName = unavailable.codeName;
        response = problemAnswer(unavailable, url.pathname, correlationId, baseHeaders);
      } else {
        logger.error(
          { err: error, correlationId, tenantId, route: contract.path, method: req.method },
          "unhandled error",
        );
        response = internalProblemAnswer(url.pathname, correlationId);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    logger.info(
      {
        correlationId,
        tenantId,
        method: req.method,
        route: contract.path,
        status: response.status,
        ms: Math.round(seconds * 1000),
      },
      "request",
    );
    observeRoute({
      path: contract.path,
      method: req.method,
      status: response.status,
      seconds,
      codeName,
      tenantId,
      body: parsedBody,
      at: now(),
    });
    return response;
  };
  const answer = (req: RouteRequest, routeContext: RouteContext): Promise<Answer | Response> => {
    const at = testClockOf(req);
    return at ? runAtClock(at, () => handle(req, routeContext)) : handle(req, routeContext);
  };
  /** As Next.js calls it; `answer` is what the runtime lane calls (server/web/runtime-lane.ts). */
  const routed = async (req: Request, routeContext: RouteContext): Promise<Response> => {
    const out = await answer(req, routeContext);
    return out instanceof Response ? out : answerResponse(out);
  };
  return Object.assign(routed, { answer });
}
