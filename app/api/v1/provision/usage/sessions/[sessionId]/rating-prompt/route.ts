import { reply, route } from "@/server/http/route";
import { licensedSession } from "@/server/http/license-session";
import { ratingPromptContract } from "@/server/http/contracts/metering/usage";
import { nextRatingPrompt } from "@/server/domain/metering/rating-prompts/next-rating-prompt";

// GET /api/v1/provision/usage/sessions/{sessionId}/rating-prompt (the session's license token; 204 when none applies)
export const GET = route(ratingPromptContract, async ({ ctx, principal, params }) => {
  const prompt = await nextRatingPrompt(ctx, licensedSession(principal, params.sessionId));
  return prompt ?? reply(204);
});
