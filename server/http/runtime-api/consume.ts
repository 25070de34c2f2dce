import { route } from "../route.ts";
import { licensedSession } from "../license-session.ts";
import { consumeContract } from "../contracts/metering/usage.ts";
import { consumeMetric } from "../../domain/metering/consumption/consume-metric.ts";

// POST /api/v1/provision/usage/consume/{sessionId}/{metric}?amount=&idempotencyKey= (the session's license token)
export const POST = route(consumeContract, ({ ctx, principal, params, query, rateLimits }) =>
  consumeMetric(
    ctx,
    {
      ...licensedSession(principal, params.sessionId),
      metricName: params.metric,
      amount: query.amount,
      idempotencyKey: query.idempotencyKey ?? null,
    },
    rateLimits,
  ),
);
