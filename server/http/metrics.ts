import { timingSafeEqual } from "node:crypto";
import { db } from "../db/client.ts";
import { pgPool } from "../db/pool.ts";
import { countRefusal, readPlatformGauges, setRefusalDb } from "../domain/cross-tenant.ts";
import type { RefusalOperation } from "../domain/operations/refusal-counts.ts";

// The refusal counters flush through the process's own client.
setRefusalDb(db);

/**
 * In-process counters for `GET /api/metrics` (Prometheus text exposition 0.0.4, docs/operations.md).
 * The route wrapper reports each request once it is answered: a few map updates, no allocation
 * beyond the first request of a label set, no I/O. Counters live on globalThis so every route
 * module of the process (Next.js may load a module once per route bundle) adds to the same ones.
 */

/** Request latency buckets (seconds): the runtime lane's targets sit at 0.1-0.15 s p99. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Histogram = { buckets: number[]; sum: number; count: number };
type Registry = {
  requests: Map<string, number>;
  latency: Map<string, Histogram>;
  activations: Map<string, number>;
  refusals: Map<string, number>;
  startedAt: number;
};

const globalRegistry = globalThis as unknown as { __licensingMetrics?: Registry };
function registry(): Registry {
  globalRegistry.__licensingMetrics ??= {
    requests: new Map(),
    latency: new Map(),
    activations: new Map(),
    refusals: new Map(),
    startedAt: Date.now(),
  };
  return globalRegistry.__licensingMetrics;
}

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

/** The bearer token `GET /api/metrics` wants (METRICS_TOKEN); unset: the endpoint answers 404. */
export function metricsTokenMatches(authorization: string | null): "disabled" | "ok" | "denied" {
  const expected = process.env.METRICS_TOKEN;
  if (!expected) return "disabled";
  const given = /^Bearer (.+)$/i.exec(authorization ?? "")?.[1] ?? "";
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b) ? "ok" : "denied";
}

const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
const labels = (pairs: Record<string, string>) =>
  `{${Object.entries(pairs)
    .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
    .join(",")}}`;
const num = (n: number) => (Number.isFinite(n) ? String(n) : n > 0 ? "+Inf" : "NaN");

/** A gauge or counter family for the exposition: help, type and samples. */
export type Family = {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram";
  samples: { suffix?: string; labels?: Record<string, string>; value: number }[];
};

/** The `kind` label of licensing_activations_total, by route group (docs/operations.md). */
const activationKinds: Record<string, string> = {
  activation: "online",
  offline_activation: "offline",
  anonymous_try: "anonymous_try",
};

/** The in-process families: requests, latency, activations, refusals, process. */
export function processFamilies(): Family[] {
  const r = registry();
  const requests: Family = {
    name: "licensing_http_requests_total",
    help: "HTTP requests answered, by route group, method and status.",
    type: "counter",
    samples: [...r.requests].map(([key, value]) => {
      const [group, method, status] = key.split("\u0000");
      return { labels: { group, method, status }, value };
    }),
  };
  const latency: Family = {
    name: "licensing_http_request_duration_seconds",
    help: "Time from request to answer in the route wrapper, by route group.",
    type: "histogram",
    samples: [...r.latency].flatMap(([group, h]) => {
      let cumulative = 0;
      return [
        ...LATENCY_BUCKETS.map((le, i) => {
          cumulative += h.buckets[i];
          return { suffix: "_bucket", labels: { group, le: String(le) }, value: cumulative };
        }),
        { suffix: "_bucket", labels: { group, le: "+Inf" }, value: h.count },
        { suffix: "_sum", labels: { group }, value: h.sum },
        { suffix: "_count", labels: { group }, value: h.count },
      ];
    }),
  };
  const activations: Family = {
    name: "licensing_activations_total",
    help: "Activations answered with a license (online, offline and anonymous tries).",
    type: "counter",
    samples: Object.entries(activationKinds).map(([group, kind]) => ({
      labels: { kind },
      value: r.activations.get(group) ?? 0,
    })),
  };
  const refusals: Family = {
    name: "licensing_refusals_total",
    help: "Runtime calls refused with a problem, by operation and problem codeName.",
    type: "counter",
    samples: [...r.refusals].map(([key, value]) => {
      const [operation, code] = key.split("\u0000");
      return { labels: { operation, code }, value };
    }),
  };
  const memory = process.memoryUsage();
  const proc: Family[] = [
    {
      name: "process_resident_memory_bytes",
      help: "Resident memory of the web process.",
      type: "gauge",
      samples: [{ value: memory.rss }],
    },
    {
      name: "process_start_time_seconds",
      help: "When the web process's counters started (Unix seconds).",
      type: "gauge",
      samples: [{ value: Math.floor(r.startedAt / 1000) }],
    },
  ];
  return [requests, latency, activations, refusals, ...proc];
}

/** Prometheus text exposition format 0.0.4. */
export function renderExposition(families: Family[]): string {
  const lines: string[] = [];
  for (const f of families) {
    lines.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples)
      lines.push(`${f.name}${s.suffix ?? ""}${s.labels ? labels(s.labels) : ""} ${num(s.value)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The families read at scrape time: the database pool, the job queue, webhook deliveries. */
export async function backlogFamilies(): Promise<Family[]> {
  const pool = pgPool();
  const g = await readPlatformGauges(db());
  return [
    {
      name: "licensing_db_pool_connections",
      help: "Connections of the web process's PostgreSQL pool, by state.",
      type: "gauge",
      samples: [
        { labels: { state: "total" }, value: pool.totalCount },
        { labels: { state: "idle" }, value: pool.idleCount },
        { labels: { state: "in_use" }, value: pool.totalCount - pool.idleCount },
        { labels: { state: "waiting" }, value: pool.waitingCount },
      ],
    },
    {
      name: "licensing_db_pool_max_connections",
      help: "The pool's connection limit.",
      type: "gauge",
      samples: [{ value: pool.options.max ?? 10 }],
    },
    {
      name: "licensing_job_queue_depth",
      help: "Worker jobs by state: ready (due, not taken) and locked (running).",
      type: "gauge",
      samples: [
        { labels: { state: "ready" }, value: g.jobsReady },
        { labels: { state: "locked" }, value: g.jobsLocked },
      ],
    },
    {
      name: "licensing_job_queue_oldest_ready_age_seconds",
      help: "How long the oldest due job has waited for a worker (0 when none waits).",
      type: "gauge",
      samples: [{ value: g.oldestReadyJobAgeSeconds }],
    },
    {
      name: "licensing_webhook_deliveries",
      help: "Webhook deliveries kept (retention window), by status: succeeded, pending, sending, dead, captured.",
      type: "gauge",
      samples: g.deliveriesByStatus.map((d) => ({ labels: { status: d.status }, value: d.count })),
    },
    {
      name: "licensing_webhook_outbox_backlog",
      help: "Event envelopes not yet fanned out to subscriptions.",
      type: "gauge",
      samples: [{ value: g.outboxBacklog }],
    },
    {
      name: "licensing_webhook_outbox_oldest_age_seconds",
      help: "Age of the oldest envelope not yet fanned out (0 when none).",
      type: "gauge",
      samples: [{ value: g.oldestOutboxAgeSeconds }],
    },
  ];
}
