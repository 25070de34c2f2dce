import { runAudited } from "../db/audit-context.ts";
import type { TenantDb, TenantTx } from "../db/tenant-db.ts";
import { now } from "../clock.ts";
import type { Principal } from "./auth.ts";
import type { Contract } from "./contract.ts";
import { idempotencyKeyOf, requestHash, runIdempotent } from "./idempotency.ts";
import { serialize, toAnswer } from "./route-answer.ts";
import { MUTATING } from "./route-input.ts";
import type { Answer, RouteRequest } from "./route-request.ts";

export type Execution = {
  contract: Contract;
  req: RouteRequest;
  url: URL;
  principal: Principal;
  /** The body as sent: an Idempotency-Key's request hash covers it. */
  rawBody: unknown;
  /** The answer's headers so far (correlation id, RateLimit fields). */
  headers: Record<string, string>;
  /** The tenant's client; none for an anonymous caller. */
  scoped: TenantDb | undefined;
  /** Runs the handler on the tenant's client, or in the Idempotency-Key's transaction. */
  invoke: (db: TenantDb | TenantTx | undefined) => Promise<unknown>;
};

/**
 * The handler's run: under an Idempotency-Key (a mutation of an authenticated caller) at most
 * once, its shaped answer stored in the change's transaction; else once, shaped as it returns.
 */
async function execute(run: Execution): Promise<Answer | Response> {
  const { contract, req, principal, scoped, headers, invoke } = run;
  const key =
    MUTATING.has(req.method) && scoped && principal.kind !== "anonymous" ? idempotencyKeyOf(req) : null;
  if (key !== null && scoped && principal.kind !== "anonymous") {
    let own: Record<string, string> = {};
    const stored = await runIdempotent(
      scoped,
      {
        tenantId: principal.tenantId,
        credentialId: `${principal.kind}:${principal.id}`,
        key,
        hash: requestHash(req.method, run.url.pathname, run.rawBody),
      },
      async (tx) => {
        const result = serialize(contract, await invoke(tx));
        own = result.headers;
        return result;
      },
    );
    return toAnswer(stored, {
      ...headers,
      ...own,
      ...(stored.replayed ? { "idempotent-replayed": "true" } : {}),
    });
  }
  const out = await invoke(scoped);
  if (out instanceof Response) {
    for (const [name, value] of Object.entries(headers)) out.headers.set(name, value);
    return out;
  }
  const result = serialize(contract, out);
  return toAnswer(result, { ...headers, ...result.headers });
}

/**
 * Mutations of API clients and signed-in users are audited in their own transactions
 * (server/db/audit-context.ts); license-session calls are recorded by their events instead.
 */
export function executeAudited(run: Execution, correlationId: string): Promise<Answer | Response> {
  const { principal, req } = run;
  if (!MUTATING.has(req.method) || (principal.kind !== "client" && principal.kind !== "consumer"))
    return execute(run);
  return runAudited(
    {
      actorKind: principal.kind === "client" ? "client" : "user",
      actorId: principal.id,
      actorLabel: principal.kind === "client" ? principal.clientId : null,
      source: "rest",
      operation: `${req.method} ${run.contract.path}`,
      correlationId,
      at: now().toISOString(),
    },
    () => execute(run),
  );
}
