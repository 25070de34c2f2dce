import { route } from "@/server/http/route";
import { consumerSessionPlansContract } from "@/server/http/contracts/licensing/sessions";
import { listConsumerSessionPlans } from "@/server/domain/licensing/sessions/consumer-session-plans";

// GET /api/v1/provision/consumer/me/sessions/{sessionId}/plans
export const GET = route(consumerSessionPlansContract, ({ ctx, params }) =>
  listConsumerSessionPlans(ctx, params.sessionId),
);
