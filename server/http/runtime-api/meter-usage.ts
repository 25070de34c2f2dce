import { reply, route } from "../route.ts";
import { licensedSession } from "../license-session.ts";
import { meterUsageContract } from "../contracts/metering/usage.ts";
import { readMeterUsage } from "../../domain/metering/meters/read-meter.ts";

// GET /api/v1/provision/usage/{sessionId}/{metric}/usage (the session's license token; 204 when untracked)
export const GET = route(meterUsageContract, async ({ ctx, principal, params }) => {
  const usage = await readMeterUsage(ctx, {
    ...licensedSession(principal, params.sessionId),
    metricName: params.metric,
  });
  return usage ?? reply(204);
});
