// GET /api/health — liveness: the process is up and serving.
export function GET(): Response {
  return Response.json({ status: "ok" }, { headers: { "cache-control": "no-store" } });
}
