import { z } from "zod";

export const MAX_CAMPAIGN_TARGETS = 50;
export const MAX_CAMPAIGN_OFFERS = 200;

export const ZRatingCampaignTargetInput = z.object({
  featureCatalogId: z.string().uuid(),
  /** null or empty falls back to a generic prompt. */
  question: z.string().max(500).nullable().default(null),
  /** Lower is asked first; null = no set order (reached by recent usage only). */
  priority: z.number().int().min(0).max(1_000_000).nullable().default(null),
});

export const ZRatingCampaignOfferInput = z.object({ offerId: z.string().uuid() });

const ZDateTime = z.iso.datetime({
  offset: true,
  message: "An ISO 8601 date-time with a time zone (e.g. 2026-01-01T00:00:00Z).",
});

const unique = (ids: readonly string[]) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length;

const ZTargets = z
  .array(ZRatingCampaignTargetInput)
  .max(MAX_CAMPAIGN_TARGETS)
  .refine((t) => unique(t.map((x) => x.featureCatalogId)), {
    message: "A feature is targeted once per campaign.",
  });
const ZOffers = z
  .array(ZRatingCampaignOfferInput)
  .max(MAX_CAMPAIGN_OFFERS)
  .refine((o) => unique(o.map((x) => x.offerId)), { message: "An offer is listed once per campaign." });

const fields = {
  name: z.string().trim().min(1, "A campaign needs a name.").max(200),
  description: z.string().max(4000).nullable().default(null),
  isEnabled: z.boolean(),
  /** null bounds are open: no start means running since ever, no end means until disabled. */
  startsAt: ZDateTime.nullable().default(null),
  endsAt: ZDateTime.nullable().default(null),
};

function checkWindow(v: { startsAt: string | null; endsAt: string | null }, ctx: z.RefinementCtx) {
  if (v.startsAt && v.endsAt && Date.parse(v.endsAt) <= Date.parse(v.startsAt)) {
    ctx.addIssue({ code: "custom", path: ["endsAt"], message: "endsAt must be after startsAt." });
  }
}

/** POST /admin/rating-campaigns. `offers` empty = every customer is asked. */
export const ZRatingCampaignCreateRequest = z
  .object({
    ...fields,
    isEnabled: fields.isEnabled.default(false),
    targets: ZTargets.nullable()
      .default([])
      .transform((v) => v ?? []),
    offers: ZOffers.nullable()
      .default([])
      .transform((v) => v ?? []),
  })
  .superRefine(checkWindow);
export type TRatingCampaignCreateRequest = z.infer<typeof ZRatingCampaignCreateRequest>;

/**
 * PUT /admin/rating-campaigns/{id}: replaces the campaign (absent description and bounds become
 * null); `targets` and `offers` null keep them, a list replaces them. With `revisionNumber` the
 * write applies only to that revision (409 otherwise).
 */
export const ZRatingCampaignUpdateRequest = z
  .object({
    ...fields,
    targets: ZTargets.nullable().optional(),
    offers: ZOffers.nullable().optional(),
    revisionNumber: z.number().int().positive().optional(),
  })
  .superRefine(checkWindow);
export type TRatingCampaignUpdateRequest = z.infer<typeof ZRatingCampaignUpdateRequest>;

export const ZRatingCampaignTarget = z.object({
  featureCatalogId: z.string().uuid(),
  featureCode: z.string().nullable(),
  featureName: z.string().nullable(),
  question: z.string().nullable(),
  priority: z.number().int().nullable(),
});

export const ZRatingCampaignOffer = z.object({
  offerId: z.string().uuid(),
  /** null when the offer no longer exists. */
  name: z.string().nullable(),
  version: z.string().nullable(),
});

export const ZRatingCampaignResponse = z.object({
  id: z.string().uuid(),
  name: z.string(),
  description: z.string().nullable(),
  isEnabled: z.boolean(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  isRunning: z.boolean(),
  targets: z.array(ZRatingCampaignTarget),
  offers: z.array(ZRatingCampaignOffer),
  creationTimeStamp: z.string(),
  lastUpdateTimeStamp: z.string(),
  revisionNumber: z.number().int(),
});
export type TRatingCampaignResponse = z.infer<typeof ZRatingCampaignResponse>;

export const ZRatingCampaignIdParams = z.object({ id: z.string().uuid() });
