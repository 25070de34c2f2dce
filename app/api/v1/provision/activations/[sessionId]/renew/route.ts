import { route } from "@/server/http/route";
import { renewSessionContract } from "@/server/http/contracts/licensing/activations";
import { renewSession } from "@/server/domain/licensing/sessions/renew-session";

// POST /api/v1/provision/activations/{sessionId}/renew (the session's license token)
export const POST = route(renewSessionContract, ({ ctx, params }) => renewSession(ctx, params.sessionId));
