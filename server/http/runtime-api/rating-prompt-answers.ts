import { route } from "../route.ts";
import { licensedSession } from "../license-session.ts";
import { ratingAnswerContract } from "../contracts/metering/usage.ts";
import { answerRatingPrompt } from "../../domain/metering/rating-prompts/answer-rating-prompt.ts";

// POST /api/v1/provision/usage/sessions/{sessionId}/rating-prompt/answers (the session's license token)
export const POST = route(ratingAnswerContract, ({ ctx, principal, params, body }) =>
  answerRatingPrompt(ctx, { ...licensedSession(principal, params.sessionId), answer: body }),
);
