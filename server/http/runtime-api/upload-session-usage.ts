import { route } from "../route.ts";
import { licensedSession } from "../license-session.ts";
import { uploadSessionUsageContract } from "../contracts/metering/usage.ts";
import { uploadSessionUsage } from "../../domain/metering/usage/upload-usage.ts";

// POST /api/v1/provision/usage/sessions/{sessionId}/transactions (the session's license token)
export const POST = route(uploadSessionUsageContract, ({ ctx, principal, params, body, rateLimits }) =>
  uploadSessionUsage(ctx, { ...licensedSession(principal, params.sessionId), records: body }, rateLimits),
);
