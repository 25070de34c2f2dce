import { z } from "zod";
import { ZKeyIssuancePolicy } from "../entitlement/key-issuance-policy.schemas.ts";
import { ZBillingFields } from "../billing/billing.schemas.ts";
import { ZRecordTags } from "../../catalog/tags/tag.schemas.ts";
import { consumerGrantLimitFields } from "./consumer-grant-limits.ts";
import {
  ZActivationPolicy,
  ZClaimBasedActivation,
  ZEntitlementFeature,
  ZFeatureSetting,
  ZProductSummary,
} from "../entitlement/policies.schemas.ts";

export const offerStatuses = ["Draft", "Published", "Archived"] as const;

const ZTimestamp = z.string().datetime({ offset: true });
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .default(null)
    .transform((v) => (v === "" ? null : v));

/** The fields an offer and a direct entitlement share (docs/api.md "Entitlement and offer"). */
export const templateFields = {
  name: z.string().trim().min(1, "A name cannot be empty.").max(200),
  description: z
    .string()
    .max(4000)
    .nullable()
    .default("")
    .transform((v) => v ?? ""),
  subscriptionStatus: z.string().trim().min(1).max(50).default("Pending"),
  licenseTermsUrl: z.string().trim().url().max(2000).nullable().default(null),
  customerContactName: optionalText(200),
  customerContactEmail: z.string().trim().email().max(320).nullable().default(null),
  licenseKey: optionalText(200),
  notValidBeforeDateTime: ZTimestamp.nullable().default(null),
  expirationDateTime: ZTimestamp.nullable().default(null),
  isEntitlementTrial: z.boolean().default(false),
  issueOnUserRegistration: z.boolean().default(false),
  allowAnonymousTry: z.boolean().default(false),
  consumersMayGrantCredits: z.boolean().default(false),
  ...consumerGrantLimitFields,
  isPlatformOffer: z.boolean().default(false),
  productIds: z.array(z.string().uuid()).max(100).default([]),
  /** Changes to the features snapshotted from the products, by featureCode. */
  features: z.array(ZFeatureSetting).max(500).default([]),
  planSetId: z.string().uuid().nullable().default(null),
  planName: z.string().trim().min(1).max(200).nullable().default(null),
  activationPolicy: ZActivationPolicy.default(ZActivationPolicy.parse({})),
  keyIssuancePolicy: ZKeyIssuancePolicy.default(ZKeyIssuancePolicy.parse({})),
  claimBasedActivation: ZClaimBasedActivation.default(ZClaimBasedActivation.parse({})),
};

const planPairRule = (v: { planSetId: string | null; planName: string | null }, ctx: z.RefinementCtx) => {
  if ((v.planSetId === null) !== (v.planName === null))
    ctx.addIssue({
      code: "custom",
      path: ["planName"],
      message: "planSetId and planName are given together.",
    });
};

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

export const ZOfferResponse = z.object({
  id: z.string().uuid(),
  isOffer: z.literal(true),
  status: z.enum(offerStatuses),
  version: z.number().int(),
  name: z.string(),
  description: z.string(),
  subscriptionStatus: z.string(),
  licenseTermsUrl: z.string().nullable(),
  customerContactName: z.string().nullable(),
  customerContactEmail: z.string().nullable(),
  licenseKey: z.string().nullable(),
  notValidBeforeDateTime: z.string().nullable(),
  expirationDateTime: z.string().nullable(),
  validityDays: z.number().int().nullable(),
  isEntitlementTrial: z.boolean(),
  issueOnUserRegistration: z.boolean(),
  allowAnonymousTry: z.boolean(),
  consumersMayGrantCredits: z.boolean(),
  /** Null where unset: the default of consumer-grant-limits.ts applies. */
  consumerGrantLimitPerGrant: z.number().nullable(),
  consumerGrantLimitPerMonth: z.number().nullable(),
  isPlatformOffer: z.boolean(),
  products: z.array(ZProductSummary),
  features: z.array(ZEntitlementFeature),
  planSetId: z.string().uuid().nullable(),
  planName: z.string().nullable(),
  billingTemplate: z.record(z.string(), z.unknown()).nullable(),
  activationPolicy: z.record(z.string(), z.unknown()),
  keyIssuancePolicy: z.record(z.string(), z.unknown()),
  claimBasedActivation: z.record(z.string(), z.unknown()),
  tags: z.array(z.string()),
  publishedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  revisionNumber: z.number().int(),
});
export type TOfferResponse = z.infer<typeof ZOfferResponse>;
