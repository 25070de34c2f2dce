import { route } from "../route.ts";
import { renewSessionContract } from "../contracts/licensing/activations.ts";
import { renewSession } from "../../domain/licensing/sessions/renew-session.ts";

// POST /api/v1/provision/activations/{sessionId}/renew (the session's license token)
export const POST = route(renewSessionContract, ({ ctx, params }) => renewSession(ctx, params.sessionId));
