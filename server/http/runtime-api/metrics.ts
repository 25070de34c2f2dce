import { backlogFamilies } from "../metrics-backlog-families.ts";
import { renderExposition } from "../metrics-exposition.ts";
import { processFamilies } from "../metrics-process-families.ts";
import { metricsTokenMatches } from "../metrics-token.ts";

// GET /api/metrics — Prometheus text exposition (docs/operations.md), for the bearer METRICS_TOKEN.
export async function GET(req: Request): Promise<Response> {
  const access = metricsTokenMatches(req.headers.get("authorization"));
  if (access === "disabled") return new Response("Not found\n", { status: 404 });
  if (access === "denied")
    return new Response("Unauthorized\n", {
      status: 401,
      headers: { "www-authenticate": 'Bearer realm="metrics"' },
    });
  const body = renderExposition([...processFamilies(), ...(await backlogFamilies())]);
  return new Response(body, {
    headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" },
  });
}
