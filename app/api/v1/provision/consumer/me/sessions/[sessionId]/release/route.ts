import { route } from "@/server/http/route";
import { releaseConsumerSessionContract } from "@/server/http/contracts/licensing/sessions";
import { releaseConsumerSession } from "@/server/domain/licensing/sessions/release-consumer-session";

// POST /api/v1/provision/consumer/me/sessions/{sessionId}/release
export const POST = route(releaseConsumerSessionContract, ({ ctx, params }) =>
  releaseConsumerSession(ctx, params.sessionId),
);
