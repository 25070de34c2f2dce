import { route } from "../route.ts";
import { checkInSessionContract } from "../contracts/licensing/activations.ts";
import { checkInSession } from "../../domain/licensing/sessions/check-in-session.ts";

// POST /api/v1/provision/activations/{sessionId}/check-in (the session's license token)
export const POST = route(checkInSessionContract, ({ ctx, params }) => checkInSession(ctx, params.sessionId));
