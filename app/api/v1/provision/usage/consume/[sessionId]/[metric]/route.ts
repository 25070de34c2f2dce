import { route } from "@/server/http/route";
import { licensedSession } from "@/server/http/license-session";
import { consumeContract } from "@/server/http/contracts/metering/usage";
import { consumeMetric } from "@/server/domain/metering/consumption/consume-metric";

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
