import type { RouteRequest } from "./route-request.ts";
import { AppError } from "../core/errors.ts";
import { activationCodeLookupKey } from "../domain/licensing/activation-codes/activation-code-format.ts";
import {
  countedRateLimits,
  hitRateLimits,
  hitValues,
  rateLimitStates,
  type PendingRateLimits,
  type RateLimitHit,
  type RateLimitState,
  type RateLimitTenant,
} from "../domain/rate-limits/hit-rate-limits.ts";
import type { RateLimitName } from "../domain/rate-limits/rate-limit-policies.ts";
import type { Principal } from "./auth.ts";
import { callerIp } from "../core/caller-address.ts";
import { now } from "../clock.ts";

/**
 * The limits a route is counted against, declared on its contract (`rateLimits`) and checked by
 * the route wrapper after the body is parsed and before anything else runs. Only the limits whose
 * key the route's request carries are listed here.
 */
export type RouteRateLimit = Extract<RateLimitName, "activation.ip" | "activation.code" | "usage.session">;

/**
 * The response headers of draft-ietf-httpapi-ratelimit-headers (structured fields, one list member
 * per limit the request was counted against): `RateLimit-Policy` names each quota (`q`) and window
 * (`w`, seconds); `RateLimit` says what remains (`r`) and when the window resets (`t`, seconds).
 */
export function rateLimitHeaders(states: RateLimitState[]): Record<string, string> {
  if (!states.length) return {};
  const headers: Record<string, string> = {
    "ratelimit-policy": states.map((s) => `"${s.name}";q=${s.limit};w=${s.windowSeconds}`).join(", "),
    ratelimit: states
      .map((s) => `"${s.name}";r=${s.exceeded ? 0 : s.remaining};t=${s.resetSeconds}`)
      .join(", "),
  };
  const exceeded = states.filter((s) => s.exceeded);
  if (exceeded.length) headers["retry-after"] = String(Math.max(...exceeded.map((s) => s.resetSeconds)));
  return headers;
}

/** Throws 429 `request.rate_limited` (with Retry-After and the RateLimit fields) when a limit is over. */
export function assertWithinRateLimits(states: RateLimitState[], headers = rateLimitHeaders(states)): void {
  const exceeded = states.filter((s) => s.exceeded);
  if (!exceeded.length) return;
  const first = exceeded[0];
  throw new AppError(
    "request.rate_limited",
    `Rate limit ${exceeded.map((s) => s.name).join(", ")} exceeded (${first.limit} per ${first.windowSeconds} s); retry in ${headers["retry-after"]} s.`,
    { headers },
  );
}

/** Whose limits, and which: what the request's principal, address and body name. */
function routeHits(names: readonly RouteRateLimit[], req: RouteRequest, principal: Principal, body: unknown) {
  const code = (body as { activationCode?: unknown } | undefined)?.activationCode;
  const lookupKey = typeof code === "string" && code ? activationCodeLookupKey(code) : undefined;
  const tenant: RateLimitTenant =
    principal.kind === "anonymous" ? { codeLookupKey: lookupKey } : { tenantId: principal.tenantId };
  const hits: RateLimitHit[] = [];
  for (const name of names) {
    if (name === "activation.ip") hits.push({ name, key: callerIp(req) ?? "unknown" });
    else if (name === "activation.code" && lookupKey) hits.push({ name, key: lookupKey });
    else if (name === "usage.session" && principal.kind === "license") hits.push({ name, key: principal.id });
  }
  return { tenant, hits };
}

/**
 * Counts a route's request against its declared limits; throws 429 when one is over, else returns
 * the headers the answer carries.
 */
export async function enforceRouteRateLimits(
  names: readonly RouteRateLimit[],
  req: RouteRequest,
  principal: Principal,
  body: unknown,
): Promise<Record<string, string>> {
  const { tenant, hits } = routeHits(names, req, principal, body);
  const states = await hitRateLimits(tenant, hits);
  const headers = rateLimitHeaders(states);
  assertWithinRateLimits(states, headers);
  return headers;
}

/**
 * The route's limits for its handler to count (a contract's `rateLimitsCountedByHandler`): the
 * handler folds the count into its own statement, or enforces it on its own, before any effect.
 * The RateLimit headers are added to `headers` (the answer's) when counted; `settled` says whether
 * the handler did count.
 */
export function pendingRouteRateLimits(
  names: readonly RouteRateLimit[],
  req: RouteRequest,
  principal: Principal,
  body: unknown,
  headers: Record<string, string>,
): PendingRateLimits & { readonly settled: boolean } {
  const { tenant, hits } = routeHits(names, req, principal, body);
  let settled = false;
  const at = now();
  const settle = (states: RateLimitState[]) => {
    settled = true;
    const own = rateLimitHeaders(states);
    Object.assign(headers, own);
    assertWithinRateLimits(states, own);
  };
  return {
    get settled() {
      return settled;
    },
    values: () => (settled ? countedRateLimits.values() : hitValues(tenant, hits, at)),
    settle: (rows) => {
      if (!settled) settle(rateLimitStates(hits, rows, at));
    },
    enforce: async () => {
      if (!settled) settle(await hitRateLimits(tenant, hits));
    },
  };
}
