import { route } from "@/server/http/route";
import { licensedSession } from "@/server/http/license-session";
import { uploadSessionUsageContract } from "@/server/http/contracts/metering/usage";
import { uploadSessionUsage } from "@/server/domain/metering/usage/upload-usage";

// POST /api/v1/provision/usage/sessions/{sessionId}/transactions (the session's license token)
export const POST = route(uploadSessionUsageContract, ({ ctx, principal, params, body, rateLimits }) =>
  uploadSessionUsage(ctx, { ...licensedSession(principal, params.sessionId), records: body }, rateLimits),
);
