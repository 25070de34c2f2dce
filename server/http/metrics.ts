import { db } from "../db/client.ts";
import { countRefusal, setRefusalDb } from "../domain/cross-tenant.ts";
import type { RefusalOperation } from "../domain/operations/refusal-counts.ts";
import { LATENCY_BUCKETS, registry } from "./metrics-registry.ts";

// The refusal counters flush through the process's own client.
setRefusalDb(db);

/*
 * Each answered request, as the route wrapper reports it, counted into this process's registry
 * (metrics-registry.ts) or forwarded to the process that serves GET /api/metrics.
 */

const RUNTIME = "/api/v1/provision/activations";

/**
 * The route group of a contract path: bounded label values (a path with ids would make one series
 * per id). Runtime calls get their own groups, since their latency is what capacity is planned on.
 */
export function routeGroup(path: string): string {
  if (path === `${RUNTIME}/license` || path === `${RUNTIME}/jwt`) return "activation";
  if (path === `${RUNTIME}/anonymous-try`) return "anonymous_try";
  if (path.startsWith(`${RUNTIME}/`)) return "session";
  if (path.startsWith("/api/v1/provision/usage/")) return "usage";
  if (path.startsWith("/api/v1/provision/operational/activations/offline")) return "offline_activation";
  const m = /^\/api\/v1\/provision\/(admin|operational|consumer|tenants)\//.exec(path);
  if (m) return m[1] === "tenants" ? "jwks" : m[1];
  if (path.startsWith("/api/v1/webhooks")) return "webhooks";
  if (path.startsWith("/auth/")) return "token";
  return "other";
}

/** Runtime groups whose 4xx answers are refusals of a shipped application (counted by code). */
const refusalOperation: Record<string, RefusalOperation | undefined> = {
  activation: "activation",
  offline_activation: "activation",
  session: "session",
  usage: "usage",
};

export type RouteObservation = {
  path: string;
  method: string;
  status: number;
  seconds: number;
  /** The problem's codeName when the answer is a problem. */
  codeName?: string;
  /** The caller's tenant when it is known (any authenticated call). */
  tenantId?: string;
  /** The parsed body, if any: an anonymous activation's refusal is attributed through its code. */
  body?: unknown;
  at: Date;
};

function add(map: Map<string, number>, key: string, n = 1) {
  map.set(key, (map.get(key) ?? 0) + n);
}

/** A request as the counters need it: of its body, only the activation code an anonymous refusal names. */
export type CountedObservation = {
  path: string;
  method: string;
  status: number;
  seconds: number;
  codeName?: string;
  tenantId?: string;
  activationCode?: string;
  at: Date;
};

// On globalThis: the process that sets it and the route bundles Next.js loads are two module graphs.
const FORWARD = Symbol.for("licensing.forwardObservation");
const forwarding = globalThis as unknown as { [FORWARD]?: (o: CountedObservation) => void };

/**
 * Sends this process's observations elsewhere instead of counting them: the Next.js child of the
 * web process forwards them to its parent (server/web/next-process.ts), which serves GET /api/metrics.
 */
export function forwardObservations(to: (o: CountedObservation) => void): void {
  forwarding[FORWARD] = to;
}

/**
 * Called once per answered request by the route wrapper. In the Next.js child of the web process
 * the observation is forwarded to the web process, which serves GET /api/metrics (forwardObservations).
 */
export function observeRoute(o: RouteObservation) {
  const code = (o.body as { activationCode?: unknown } | undefined)?.activationCode;
  const counted: CountedObservation = {
    path: o.path,
    method: o.method,
    status: o.status,
    seconds: o.seconds,
    codeName: o.codeName,
    tenantId: o.tenantId,
    activationCode: typeof code === "string" ? code : undefined,
    at: o.at,
  };
  const forward = forwarding[FORWARD];
  if (forward) forward(counted);
  else countObservation(counted);
}

/** Adds one answered request to this process's counters (the web process's, for its child's too). */
export function countObservation(o: CountedObservation) {
  const r = registry();
  const group = routeGroup(o.path);
  add(r.requests, `${group}\u0000${o.method}\u0000${o.status}`);
  let h = r.latency.get(group);
  if (!h) {
    h = { buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 };
    r.latency.set(group, h);
  }
  const i = LATENCY_BUCKETS.findIndex((le) => o.seconds <= le);
  if (i >= 0) h.buckets[i] += 1;
  h.sum += o.seconds;
  h.count += 1;

  // An anonymous try answered 200 carries a license, as the activations report counts it.
  if (group === "anonymous_try" && o.status >= 200 && o.status < 300) add(r.activations, group);
  const operation = refusalOperation[group];
  if (!operation) return;
  if (operation === "activation" && o.status >= 200 && o.status < 300) add(r.activations, group);
  else if (o.status >= 400 && o.status < 500 && o.codeName) {
    add(r.refusals, `${operation}\u0000${o.codeName}`);
    countRefusal({
      operation,
      codeName: o.codeName,
      at: o.at,
      tenantId: o.tenantId,
      activationCode: o.activationCode,
    });
  }
}
