import { db } from "@/server/db/client";
import { readiness } from "@/server/db/readiness";

export const dynamic = "force-dynamic";

// GET /api/ready — readiness: database reachable, migrations applied, worker heartbeat fresh.
export async function GET(): Promise<Response> {
  const result = await readiness(db());
  return Response.json(result, {
    status: result.ready ? 200 : 503,
    headers: { "cache-control": "no-store" },
  });
}
