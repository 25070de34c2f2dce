import type { DomainContext } from "../../context.ts";
import { applicableRatingTargets } from "./rating-targets.ts";
import type { TRatingPromptResponse } from "./rating-prompt.schemas.ts";

/** docs/api.md: a null or empty question falls back to a generic prompt. */
export const genericQuestion = (featureName: string) => `How useful is ${featureName} to you?`;

/**
 * GET /usage/sessions/{sessionId}/rating-prompt: the first applicable target this license has not
 * answered (rating-targets.ts for the order); null (204) when none applies.
 */
export async function nextRatingPrompt(
  ctx: DomainContext,
  input: { sessionId: string; entitlementId: string },
): Promise<TRatingPromptResponse | null> {
  const next = (await applicableRatingTargets(ctx, input)).find((t) => !t.answered);
  if (!next) return null;
  return {
    campaignId: next.campaignId,
    campaignName: next.campaignName,
    featureCatalogId: next.featureCatalogId,
    featureCode: next.featureCode,
    featureName: next.featureName,
    question: next.question ?? genericQuestion(next.featureName),
    isGenericQuestion: next.question === null,
    priority: next.priority,
    ratingScale: { min: 1, max: 5 },
  };
}
