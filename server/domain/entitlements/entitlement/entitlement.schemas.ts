import { z } from "zod";
import { ZKeyIssuancePolicy } from "./key-issuance-policy.schemas.ts";
import { ZBillingFields } from "../billing/billing.schemas.ts";
import { onlyKnownFields } from "../offers/offer.schemas.ts";
import {
  planPairRule,
  templateFieldNames,
  templateFields,
  templateResponseFields,
} from "../offers/offer-template.ts";
import { placeFieldsAfter } from "../../../core/field-order.ts";
import { ZActivationPolicy, ZClaimBasedActivation } from "./policies.schemas.ts";

/** `Draft`, `Published` (issued, in force), `Archived` (deleted; kept for history and events). */
export const entitlementStatuses = ["Draft", "Published", "Archived"] as const;
export const customerKinds = ["User", "Organization"] as const;

/** The template fields a direct entitlement is made of (validated once the offer's values are merged in). */
export const ZEntitlementTemplate = z.object(templateFields).superRefine(planPairRule);

/**
 * POST /admin/entitlements: from a Published offer (`offerId`; every template field given here
 * overrides the offer's, except products, which come from the offer) or directly (no offerId;
 * the template fields of docs/api.md "Entitlement and offer", `name` required). Template fields are
 * validated after the merge, so the body is an open object of known fields.
 */
const entitlementCreateShape = {
  offerId: z.string().uuid().nullable().default(null),
  status: z.enum(["Draft", "Published"]).default("Published"),
  customerId: z.string().uuid().nullable().default(null),
  reference: z.string().trim().min(1).max(200).nullable().default(null),
  externalReference: z.string().trim().min(1).max(200).nullable().default(null),
  /** Days the entitlement runs from now when no expirationDateTime is given (overrides the offer's validityDays). */
  validityDays: z.number().int().min(1).max(36_500).nullable().default(null),
  billing: ZBillingFields.nullable().default(null),
  /** The buyer's anonymous try: it converts to the entitlement made here (docs/decisions.md). */
  anonymousTryId: z.string().uuid().nullable().default(null),
};
export const ZEntitlementCreateRequest = z
  .looseObject(entitlementCreateShape)
  .superRefine(onlyKnownFields([...Object.keys(entitlementCreateShape), ...templateFieldNames]));
export type TEntitlementCreateRequest = z.output<typeof ZEntitlementCreateRequest>;

/** PATCH /admin/entitlements/{id}: merge; absent or null fields stay; sentinels clear. */
export const ZEntitlementUpdateRequest = z.object({
  name: z.string().trim().min(1).max(200).nullable().optional(),
  description: z.string().max(4000).nullable().optional(),
  status: z.enum(["Draft", "Published"]).nullable().optional(),
  subscriptionStatus: z.string().trim().min(1).max(50).nullable().optional(),
  licenseTermsUrl: z.string().trim().url().max(2000).nullable().optional(),
  customerContactName: z.string().trim().max(200).nullable().optional(),
  customerContactEmail: z.string().trim().email().max(320).nullable().optional(),
  licenseKey: z.string().trim().max(200).nullable().optional(),
  reference: z.string().trim().max(200).nullable().optional(),
  externalReference: z.string().trim().max(200).nullable().optional(),
  notValidBeforeDateTime: z.string().datetime({ offset: true }).nullable().optional(),
  expirationDateTime: z.string().datetime({ offset: true }).nullable().optional(),
  clearNotValidBeforeDate: z.boolean().optional(),
  clearExpirationDate: z.boolean().optional(),
  isEntitlementTrial: z.boolean().nullable().optional(),
  consumersMayGrantCredits: z.boolean().nullable().optional(),
  customerId: z.string().uuid().nullable().optional(),
  clearCustomer: z.boolean().optional(),
  /** featureCode → value for features with canModifyValueOnEntitlement; a null value removes the override. */
  featureOverrides: z
    .record(z.string().min(1).max(200), z.string().max(10_000).nullable())
    .nullable()
    .optional(),
  activationPolicy: ZActivationPolicy.nullable().optional(),
  keyIssuancePolicy: ZKeyIssuancePolicy.nullable().optional(),
  claimBasedActivation: ZClaimBasedActivation.nullable().optional(),
});
export type TEntitlementUpdateRequest = z.infer<typeof ZEntitlementUpdateRequest>;

export const ZEntitlementIdParams = z.object({ id: z.string().uuid() });

export const ZPlanHistoryEntry = z.object({
  changedAt: z.string(),
  previousPlanSetId: z.string().uuid().nullable(),
  previousPlanName: z.string().nullable(),
  newPlanSetId: z.string().uuid(),
  newPlanName: z.string(),
  source: z.string(),
});

export const ZEntitlementResponse = z.object(
  placeFieldsAfter(
    {
      id: z.string().uuid(),
      isOffer: z.literal(false),
      status: z.enum(entitlementStatuses),
      version: z.number().int(),
      ...templateResponseFields,
      reference: z.string().nullable(),
      externalReference: z.string().nullable(),
      isAnonymousTry: z.boolean(),
      convertedToEntitlementId: z.string().uuid().nullable(),
      anonymousTryIssuedAt: z.string().nullable(),
      anonymousTryPurgeDueAt: z.string().nullable(),
      sourceOfferId: z.string().uuid().nullable(),
      originOfferId: z.string().uuid().nullable(),
      customerId: z.string().uuid().nullable(),
      customerKind: z.enum(customerKinds).nullable(),
      activationsEnabled: z.boolean(),
      transferCount: z.number().int(),
      featureOverrides: z.record(z.string(), z.string()),
      planHistory: z.array(ZPlanHistoryEntry),
      createdAt: z.string(),
      updatedAt: z.string(),
      revisionNumber: z.number().int(),
    },
    {
      licenseKey: ["reference", "externalReference"],
      consumerGrantLimitPerMonth: ["isAnonymousTry"],
      isPlatformOffer: [
        "convertedToEntitlementId",
        "anonymousTryIssuedAt",
        "anonymousTryPurgeDueAt",
        "sourceOfferId",
        "originOfferId",
        "customerId",
        "customerKind",
        "activationsEnabled",
        "transferCount",
      ],
      features: ["featureOverrides"],
      planName: ["planHistory"],
    },
  ),
);
export type TEntitlementResponse = z.infer<typeof ZEntitlementResponse>;
