import { route } from "../route.ts";
import { releaseSessionContract } from "../contracts/licensing/activations.ts";
import { releaseSession } from "../../domain/licensing/sessions/release-session.ts";

// POST /api/v1/provision/activations/{sessionId}/release (the session's license token)
export const POST = route(releaseSessionContract, ({ ctx, params }) => releaseSession(ctx, params.sessionId));
