import { route } from "../route.ts";
import { licensedSession } from "../license-session.ts";
import { previewConsumeContract } from "../contracts/metering/usage.ts";
import { previewConsume } from "../../domain/metering/consumption/consume-metric.ts";

// POST /api/v1/provision/usage/preview-consume/{sessionId}/{metric} (the session's license token)
export const POST = route(previewConsumeContract, ({ ctx, principal, params, query }) =>
  previewConsume(ctx, {
    ...licensedSession(principal, params.sessionId),
    metricName: params.metric,
    amount: query.amount,
  }),
);
