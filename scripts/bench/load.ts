// One autocannon run with docs/architecture.md section 11's settings, summarized the same way for every scenario.
import autocannon, { type AutocannonRequest } from "autocannon";

export const BENCH_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
export const BENCH_DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);

export type LoadResult = {
  connections: number;
  durationS: number;
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
};

export async function load(url: string, request: AutocannonRequest): Promise<LoadResult> {
  const result = await autocannon({ url, connections: BENCH_CONNECTIONS, duration: BENCH_DURATION_S, requests: [request] });
  const total = result["2xx"] + result.non2xx;
  return {
    connections: BENCH_CONNECTIONS,
    durationS: result.duration,
    requests: total,
    requestsPerSecond: Math.round(total / result.duration),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, average: Math.round(result.latency.average * 10) / 10 },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, count])),
  };
}
