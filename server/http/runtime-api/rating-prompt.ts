import { reply, route } from "../route.ts";
import { licensedSession } from "../license-session.ts";
import { ratingPromptContract } from "../contracts/metering/usage.ts";
import { nextRatingPrompt } from "../../domain/metering/rating-prompts/next-rating-prompt.ts";

// GET /api/v1/provision/usage/sessions/{sessionId}/rating-prompt (the session's license token; 204 when none applies)
export const GET = route(ratingPromptContract, async ({ ctx, principal, params }) => {
  const prompt = await nextRatingPrompt(ctx, licensedSession(principal, params.sessionId));
  return prompt ?? reply(204);
});
