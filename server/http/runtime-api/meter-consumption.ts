import { reply, route } from "../route.ts";
import { licensedSession } from "../license-session.ts";
import { meterConsumptionContract } from "../contracts/metering/usage.ts";
import { readMeterConsumption } from "../../domain/metering/meters/read-meter.ts";

// GET /api/v1/provision/usage/{sessionId}/{metric}/consumption (the session's license token; 204 when untracked)
export const GET = route(meterConsumptionContract, async ({ ctx, principal, params }) => {
  const consumption = await readMeterConsumption(ctx, {
    ...licensedSession(principal, params.sessionId),
    metricName: params.metric,
  });
  return consumption ?? reply(204);
});
