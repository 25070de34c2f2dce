import { route } from "@/server/http/route";
import { integratorReplayContract } from "@/server/http/contracts/webhooks/webhooks";
import { replayEnvelopes } from "@/server/domain/webhooks/delivery/replay-envelopes";
import { integratorAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// POST /api/v1/webhooks/integrator/subscriptions/{id}/replay
export const POST = route(integratorReplayContract, ({ ctx, params, body }) =>
  replayEnvelopes(ctx, integratorAccess(ctx), params.id, body),
);
