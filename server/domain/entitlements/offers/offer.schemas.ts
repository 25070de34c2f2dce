import { z } from "zod";
import { ZBillingFields } from "../billing/billing.schemas.ts";
import { ZRecordTags } from "../../catalog/tags/tag.schemas.ts";
import { placeFieldsAfter } from "../../../core/field-order.ts";
import { planPairRule, templateFields, templateResponseFields } from "./offer-template.ts";

// The back office's offer form takes its field rules from here.
export { templateFields };

export const offerStatuses = ["Draft", "Published", "Archived"] as const;

/** POST /admin/offers and PUT /admin/offers/{id} (full replace of the editable fields). */
export const ZOfferWriteRequest = z
  .object({
    ...templateFields,
    /** Days an entitlement made from the offer runs when the offer names no expirationDateTime. */
    validityDays: z.number().int().min(1).max(36_500).nullable().default(null),
    billingTemplate: ZBillingFields.nullable().default(null),
    /** Tag names of the offers' own vocabulary (docs/api.md Tag scope `Offer`); null leaves them, [] clears. */
    tags: ZRecordTags,
  })
  .superRefine(planPairRule);

/**
 * Refuses the fields an open body does not know: a misspelt field is a 400, never silently dropped.
 * (Bodies validated only after a merge are open objects, so zod's strictness cannot do it.)
 */
export const onlyKnownFields =
  (allowed: readonly string[]) => (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key))
        ctx.addIssue({ code: "custom", path: [key], message: `Unknown field ${key}.` });
    }
  };

const offerWriteFields = [...Object.keys(templateFields), "validityDays", "billingTemplate", "tags"];

/**
 * PATCH /admin/offers/{id}: a merge; every field given replaces the offer's, the rest stay. The
 * merged offer is validated as a whole (like PUT), so the body is an open object of known fields.
 */
export const ZOfferPatchRequest = z.looseObject({}).superRefine(onlyKnownFields(offerWriteFields));
export type TOfferPatchRequest = z.infer<typeof ZOfferPatchRequest>;
export type TOfferWriteRequest = z.output<typeof ZOfferWriteRequest>;

export const ZOfferIdParams = z.object({ id: z.string().uuid() });

export const ZOfferResponse = z.object(
  placeFieldsAfter(
    {
      id: z.string().uuid(),
      isOffer: z.literal(true),
      status: z.enum(offerStatuses),
      version: z.number().int(),
      ...templateResponseFields,
      validityDays: z.number().int().nullable(),
      billingTemplate: z.record(z.string(), z.unknown()).nullable(),
      tags: z.array(z.string()),
      publishedAt: z.string().nullable(),
      createdAt: z.string(),
      updatedAt: z.string(),
      revisionNumber: z.number().int(),
    },
    { expirationDateTime: ["validityDays"], planName: ["billingTemplate"] },
  ),
);
export type TOfferResponse = z.infer<typeof ZOfferResponse>;
