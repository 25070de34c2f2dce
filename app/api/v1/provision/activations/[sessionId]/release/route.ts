import { route } from "@/server/http/route";
import { releaseSessionContract } from "@/server/http/contracts/licensing/activations";
import { releaseSession } from "@/server/domain/licensing/sessions/release-session";

// POST /api/v1/provision/activations/{sessionId}/release (the session's license token)
export const POST = route(releaseSessionContract, ({ ctx, params }) => releaseSession(ctx, params.sessionId));
