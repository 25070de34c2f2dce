/**
 * The in-process counters for `GET /api/metrics` (Prometheus text exposition 0.0.4, docs/operations.md).
 * The route wrapper reports each request once it is answered: a few map updates, no allocation
 * beyond the first request of a label set, no I/O. Counters live on globalThis so every route
 * module of the process (Next.js may load a module once per route bundle) adds to the same ones.
 */

/** Request latency buckets (seconds): the runtime lane's targets sit at 0.1-0.15 s p99. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export type Histogram = { buckets: number[]; sum: number; count: number };
export type Registry = {
  requests: Map<string, number>;
  latency: Map<string, Histogram>;
  activations: Map<string, number>;
  refusals: Map<string, number>;
  startedAt: number;
};

const globalRegistry = globalThis as unknown as { __licensingMetrics?: Registry };
export function registry(): Registry {
  globalRegistry.__licensingMetrics ??= {
    requests: new Map(),
    latency: new Map(),
    activations: new Map(),
    refusals: new Map(),
    startedAt: Date.now(),
  };
  return globalRegistry.__licensingMetrics;
}
