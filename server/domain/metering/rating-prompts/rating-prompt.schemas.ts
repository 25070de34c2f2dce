import { z } from "zod";

/** GET /usage/sessions/{sessionId}/rating-prompt. */
export const ZRatingPromptResponse = z
  .object({
    campaignId: z.string().uuid(),
    campaignName: z.string(),
    featureCatalogId: z.string().uuid(),
    featureCode: z.string(),
    featureName: z.string(),
    question: z.string().describe("The campaign's question, or a generic one when the target has none."),
    isGenericQuestion: z.boolean(),
    priority: z.number().int().nullable(),
    ratingScale: z.object({ min: z.literal(1), max: z.literal(5) }),
  })
  .describe("The next feature-rating prompt for this license.");
export type TRatingPromptResponse = z.infer<typeof ZRatingPromptResponse>;

/** POST /usage/sessions/{sessionId}/rating-prompt/answers. */
export const ZRatingAnswerRequest = z.object({
  campaignId: z.string().uuid(),
  featureCatalogId: z.string().uuid(),
  rating: z
    .number()
    .int()
    .min(1)
    .max(5)
    .nullable()
    .describe("1 (not useful) to 5 (essential); null declines: the prompt is not asked again either way."),
  comment: z.string().trim().max(2000).nullable().optional(),
});
export type TRatingAnswerRequest = z.infer<typeof ZRatingAnswerRequest>;

export const ZRatingAnswerResponse = z.object({
  campaignId: z.string().uuid(),
  featureCatalogId: z.string().uuid(),
  entitlementId: z.string().uuid(),
  rating: z.number().int().nullable(),
  comment: z.string().nullable(),
  answeredAt: z.string(),
});
export type TRatingAnswerResponse = z.infer<typeof ZRatingAnswerResponse>;
