import { reply, route } from "@/server/http/route";
import { licensedSession } from "@/server/http/license-session";
import { meterUsageContract } from "@/server/http/contracts/metering/usage";
import { readMeterUsage } from "@/server/domain/metering/meters/read-meter";

// GET /api/v1/provision/usage/{sessionId}/{metric}/usage (the session's license token; 204 when untracked)
export const GET = route(meterUsageContract, async ({ ctx, principal, params }) => {
  const usage = await readMeterUsage(ctx, {
    ...licensedSession(principal, params.sessionId),
    metricName: params.metric,
  });
  return usage ?? reply(204);
});
