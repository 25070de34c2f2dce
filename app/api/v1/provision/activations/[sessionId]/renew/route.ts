import { route } from "@/server/http/route";
import { db } from "@/server/db/client";
import { renewSessionContract } from "@/server/http/contracts/activations";
import { renewSession } from "@/server/domain/licensing/renew-session";
import { assertTokenSession } from "@/server/domain/licensing/session-access";

// POST /api/v1/provision/activations/{sessionId}/renew (the session's license token)
export const POST = route(renewSessionContract, ({ ctx, params }) => {
  assertTokenSession(ctx.actor.id, params.sessionId);
  return renewSession(db(), ctx.tenantId, params.sessionId);
});
