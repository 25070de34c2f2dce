import { route } from "@/server/http/route";
import { db } from "@/server/db/client";
import { checkInSessionContract } from "@/server/http/contracts/activations";
import { checkInSession } from "@/server/domain/licensing/check-in-session";
import { assertTokenSession } from "@/server/domain/licensing/session-access";

// POST /api/v1/provision/activations/{sessionId}/check-in (the session's license token)
export const POST = route(checkInSessionContract, ({ ctx, params }) => {
  assertTokenSession(ctx.actor.id, params.sessionId);
  return checkInSession(db(), ctx.tenantId, params.sessionId);
});
