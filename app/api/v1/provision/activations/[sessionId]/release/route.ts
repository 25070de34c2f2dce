import { route } from "@/server/http/route";
import { db } from "@/server/db/client";
import { releaseSessionContract } from "@/server/http/contracts/activations";
import { releaseSession } from "@/server/domain/licensing/release-session";
import { assertTokenSession } from "@/server/domain/licensing/session-access";

// POST /api/v1/provision/activations/{sessionId}/release (the session's license token)
export const POST = route(releaseSessionContract, ({ ctx, params }) => {
  assertTokenSession(ctx.actor.id, params.sessionId);
  return releaseSession(db(), ctx.tenantId, params.sessionId);
});
