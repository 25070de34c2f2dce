import { route } from "@/server/http/route";
import { checkInSessionContract } from "@/server/http/contracts/licensing/activations";
import { checkInSession } from "@/server/domain/licensing/sessions/check-in-session";

// POST /api/v1/provision/activations/{sessionId}/check-in (the session's license token)
export const POST = route(checkInSessionContract, ({ ctx, params }) => checkInSession(ctx, params.sessionId));
