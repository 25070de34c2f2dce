import type { z } from "zod";
import { db } from "../db/client.ts";
import { tenantDb } from "../db/tenant-db.ts";
import type { DomainContext } from "../domain/context.ts";
import { logger } from "../log.ts";
import { authenticate, type Principal } from "./auth.ts";
import type { Contract } from "./contract.ts";
import { answerResponse, type Answer, type RouteRequest } from "./route-request.ts";
import { testClockOf } from "./test-clock.ts";
import { now, runAtClock } from "../clock.ts";
import { observeRoute } from "./metrics.ts";
import { enforceRouteRateLimits, pendingRouteRateLimits } from "./rate-limit.ts";
import { countedRateLimits, type PendingRateLimits } from "../domain/rate-limits/hit-rate-limits.ts";
import { errorAnswer } from "./route-answer.ts";
import { domainContextOf } from "./route-context.ts";
import { executeAudited } from "./route-execute.ts";
import { correlationIdOf, parseRouteInput } from "./route-input.ts";

export { Reply, reply } from "./route-answer.ts";

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
  /** The route's limits when its contract has the handler count them; else already counted. */
  rateLimits: PendingRateLimits;
};

type RouteContext = { params: Promise<Record<string, string | string[]>> };

/**
 * The one REST wrapper (docs/architecture.md section 6), in its steps: correlation id, authentication and
 * scope (auth.ts), zod parse of params/query/body (route-input.ts), the route's rate limits
 * (rate-limit.ts; or the handler counts them in its own statement), the handler under an
 * Idempotency-Key and the audit context (route-execute.ts), response shaping and problem+json for
 * every error (route-answer.ts), then the request's log line and metrics.
 */
export function route<C extends Contract>(
  contract: C,
  handler: (input: HandlerInput<C>) => Promise<unknown>,
) {
  const handle = async (req: RouteRequest, routeContext: RouteContext): Promise<Answer | Response> => {
    const started = performance.now();
    const url = new URL(req.url);
    const correlationId = correlationIdOf(req);
    const headers: Record<string, string> = { "x-correlation-id": correlationId };
    let tenantId: string | undefined;
    let parsedBody: unknown;
    let codeName: string | undefined;
    let response: Answer | Response;
    try {
      const principal = await authenticate(req, contract.auth);
      tenantId = principal.kind === "anonymous" ? undefined : principal.tenantId;
      const { params, query, rawBody, body } = await parseRouteInput(
        contract,
        req,
        url,
        await routeContext.params,
      );
      parsedBody = body;
      const pendingLimits =
        contract.rateLimits && contract.rateLimitsCountedByHandler
          ? pendingRouteRateLimits(contract.rateLimits, req, principal, body, headers)
          : undefined;
      if (contract.rateLimits && !pendingLimits)
        Object.assign(headers, await enforceRouteRateLimits(contract.rateLimits, req, principal, body));
      const invoke = async (dbOrTx: DomainContext["db"] | undefined): Promise<unknown> => {
        const input = {
          ctx: dbOrTx ? domainContextOf(principal, dbOrTx, correlationId) : undefined,
          principal,
          params,
          query,
          body,
          req,
          correlationId,
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
      const scoped = tenantId ? tenantDb(db(), tenantId) : undefined;
      response = await executeAudited(
        { contract, req, url, principal, rawBody, headers, scoped, invoke },
        correlationId,
      );
    } catch (error) {
      const failed = errorAnswer(
        error,
        { path: url.pathname, method: req.method, route: contract.path, correlationId, tenantId },
        headers,
      );
      response = failed.answer;
      codeName = failed.codeName;
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
