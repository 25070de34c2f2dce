import { LATENCY_BUCKETS, registry } from "./metrics-registry.ts";
import type { Family } from "./metrics-exposition.ts";

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
