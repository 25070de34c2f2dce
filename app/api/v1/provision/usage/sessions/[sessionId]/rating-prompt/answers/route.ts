import { route } from "@/server/http/route";
import { licensedSession } from "@/server/http/license-session";
import { ratingAnswerContract } from "@/server/http/contracts/metering/usage";
import { answerRatingPrompt } from "@/server/domain/metering/rating-prompts/answer-rating-prompt";

// POST /api/v1/provision/usage/sessions/{sessionId}/rating-prompt/answers (the session's license token)
export const POST = route(ratingAnswerContract, ({ ctx, principal, params, body }) =>
  answerRatingPrompt(ctx, { ...licensedSession(principal, params.sessionId), answer: body }),
);
