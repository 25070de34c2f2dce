import type { DomainContext } from "../../context.ts";
import { AppError } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { applicableRatingTargets } from "./rating-targets.ts";
import type { TRatingAnswerRequest, TRatingAnswerResponse } from "./rating-prompt.schemas.ts";

/**
 * POST /usage/sessions/{sessionId}/rating-prompt/answers: records the license's answer to a target
 * that is asked of it now (else 400 `usage.rating_not_applicable`). One answer per license,
 * campaign and feature; answering again replaces it (a client may retry). A null rating declines.
 * Either way the target is not prompted again on this license.
 */
export async function answerRatingPrompt(
  ctx: DomainContext,
  input: { sessionId: string; entitlementId: string; answer: TRatingAnswerRequest },
): Promise<TRatingAnswerResponse> {
  const { answer } = input;
  const targets = await applicableRatingTargets(ctx, input);
  if (
    !targets.some((t) => t.campaignId === answer.campaignId && t.featureCatalogId === answer.featureCatalogId)
  )
    throw new AppError(
      "usage.rating_not_applicable",
      "No running rating campaign asks this license about that feature.",
    );
  const answeredAt = now();
  const data = {
    sessionId: input.sessionId,
    rating: answer.rating,
    comment: answer.comment || null,
    answeredAt,
  };
  const row = await ctx.db.featureRating.upsert({
    where: {
      tenantId_campaignId_featureCatalogId_entitlementId: {
        tenantId: ctx.tenantId,
        campaignId: answer.campaignId,
        featureCatalogId: answer.featureCatalogId,
        entitlementId: input.entitlementId,
      },
    },
    create: {
      tenantId: ctx.tenantId,
      campaignId: answer.campaignId,
      featureCatalogId: answer.featureCatalogId,
      entitlementId: input.entitlementId,
      ...data,
    },
    update: data,
  });
  return {
    campaignId: row.campaignId,
    featureCatalogId: row.featureCatalogId,
    entitlementId: row.entitlementId,
    rating: row.rating,
    comment: row.comment,
    answeredAt: row.answeredAt.toISOString(),
  };
}
