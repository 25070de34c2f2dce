import { route } from "@/server/http/route";
import { licensedSession } from "@/server/http/license-session";
import { previewConsumeContract } from "@/server/http/contracts/metering/usage";
import { previewConsume } from "@/server/domain/metering/consumption/consume-metric";

// POST /api/v1/provision/usage/preview-consume/{sessionId}/{metric} (the session's license token)
export const POST = route(previewConsumeContract, ({ ctx, principal, params, query }) =>
  previewConsume(ctx, {
    ...licensedSession(principal, params.sessionId),
    metricName: params.metric,
    amount: query.amount,
  }),
);
