import { route } from "@/server/http/route";
import { adminReplayContract } from "@/server/http/contracts/webhooks/webhooks";
import { replayEnvelopes } from "@/server/domain/webhooks/delivery/replay-envelopes";
import { adminAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// POST /api/v1/webhooks/subscriptions/{id}/replay
export const POST = route(adminReplayContract, ({ ctx, params, body }) =>
  replayEnvelopes(ctx, adminAccess, params.id, body),
);
