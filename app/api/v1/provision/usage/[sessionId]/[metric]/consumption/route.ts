import { reply, route } from "@/server/http/route";
import { licensedSession } from "@/server/http/license-session";
import { meterConsumptionContract } from "@/server/http/contracts/metering/usage";
import { readMeterConsumption } from "@/server/domain/metering/meters/read-meter";

// GET /api/v1/provision/usage/{sessionId}/{metric}/consumption (the session's license token; 204 when untracked)
export const GET = route(meterConsumptionContract, async ({ ctx, principal, params }) => {
  const consumption = await readMeterConsumption(ctx, {
    ...licensedSession(principal, params.sessionId),
    metricName: params.metric,
  });
  return consumption ?? reply(204);
});
