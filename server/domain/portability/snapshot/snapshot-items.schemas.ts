import { z } from "zod";
import { ZUsageTier } from "../../catalog/monitored-assets/usage-tier.schemas.ts";
import { templatePortableFields } from "../../entitlements/offers/offer-template.ts";
import { placeFieldsAfter } from "../../../core/field-order.ts";

/**
 * The portable form of each section's items: what is needed to recreate the record in another
 * tenant, with every cross-record link given as the source id (the references map carries the
 * natural key of each). Tenant-local counters (revision numbers, usage counts, credits used,
 * offer versions) and timestamps of the records themselves are not part of it. Optional fields
 * default, so a hand-written file needs only what it means to set.
 */

const ZId = z.string().uuid();
const ZTimestamp = z.iso.datetime({ offset: true });
const ZTags = z.array(z.string().max(100)).max(50).default([]);

export const ZPortableTag = z.object({
  id: ZId,
  scope: z.string().min(1).max(50),
  name: z.string().min(1).max(100),
  color: z.string().nullable().default(null),
});
export type TPortableTag = z.output<typeof ZPortableTag>;

export const ZPortableMeteredUsage = z.object({
  usageTiers: z.array(ZUsageTier).default([]),
  consumptionPeriod: z.string().default(""),
  periodAnchor: z.string().default("Calendar"),
  accumulationMethod: z.string().default("Sliced"),
  suspendedUntilAt: ZTimestamp.nullable().default(null),
});

export const ZPortableBalanceUsage = z.object({
  name: z.string(),
  description: z.string().default(""),
  unit: z.string().default(""),
  numberFormat: z.string().default(""),
  initialCreditAmount: z.number().default(0),
  isUnlimitedCredits: z.boolean().default(false),
  usageQuota: z
    .array(z.object({ endUsage: z.number(), name: z.string(), quotaUsageLevel: z.string() }))
    .default([]),
  suspendedUntilAt: ZTimestamp.nullable().default(null),
  autoBalanceCronSchedule: z.string().nullable().default(null),
  shouldAutoBalanceTransferCurrentCredits: z.boolean().default(false),
  maxAutoBalanceCreditTransferAmount: z.number().nullable().default(null),
  autoBalanceCreditAmount: z.number().nullable().default(null),
});

const assetFields = {
  metricName: z.string().min(1).max(200),
  name: z.string().max(200),
  description: z.string().default(""),
  unit: z.string().default(""),
  category: z.string().default(""),
  numberFormat: z.string().default(""),
  metricType: z.string().default("CumulativeCounter"),
  tags: ZTags,
  allowedBackDatingTolerance: z.string().nullable().default(null),
  meteredUsage: ZPortableMeteredUsage.nullable().default(null),
  balanceUsage: ZPortableBalanceUsage.nullable().default(null),
};

/** A product's own monitored asset (monitoredAssets section). */
export const ZPortableMonitoredAsset = z.object({ id: ZId, productId: ZId, ...assetFields });
export type TPortableMonitoredAsset = z.output<typeof ZPortableMonitoredAsset>;

/** docs/api.md: the assets nested in a product are echoed for reading only; they carry no ids. */
export const ZPortableAssetEcho = z.object(assetFields);

export const ZPortableProductFeature = z.object({
  featureCatalogId: ZId,
  /** Informational: the entry's code (the reference is featureCatalogId). */
  featureCode: z.string().default(""),
  moduleName: z.string().nullable().default(null),
  name: z.string().max(200),
  description: z.string().default(""),
  value: z.string().nullable().default(null),
  isEnabled: z.boolean().default(true),
  includeInLicenseToken: z.boolean().default(true),
  isAvailableDuringTrialPeriod: z.boolean().default(true),
  isAvailableDuringGracePeriod: z.boolean().default(true),
  isPaidFeature: z.boolean().default(false),
  canModifyValueOnEntitlement: z.boolean().default(false),
  visibility: z.string().default("Public"),
  sortOrder: z.number().int().default(0),
});
export type TPortableProductFeature = z.output<typeof ZPortableProductFeature>;

type FeatureSettings = Omit<TPortableProductFeature, "featureCatalogId" | "featureCode" | "sortOrder">;

/**
 * A product feature's own settings (what is not read from its catalog entry): what the export
 * writes, the import attaches with, and compares an existing feature on.
 */
export const featureSettings = (f: FeatureSettings): FeatureSettings => ({
  moduleName: f.moduleName,
  name: f.name,
  description: f.description,
  value: f.value,
  isEnabled: f.isEnabled,
  includeInLicenseToken: f.includeInLicenseToken,
  isAvailableDuringTrialPeriod: f.isAvailableDuringTrialPeriod,
  isAvailableDuringGracePeriod: f.isAvailableDuringGracePeriod,
  isPaidFeature: f.isPaidFeature,
  canModifyValueOnEntitlement: f.canModifyValueOnEntitlement,
  visibility: f.visibility,
});

export const ZPortableProduct = z.object({
  id: ZId,
  productCode: z.string().min(1).max(100),
  productVersion: z.string().max(50).default(""),
  name: z.string().max(200),
  description: z.string().default(""),
  status: z.string().default("Draft"),
  expirationDate: ZTimestamp.nullable().default(null),
  externalId: z.string().nullable().default(null),
  tags: ZTags,
  propertyValues: z.record(z.string(), z.unknown()).default({}),
  isLocked: z.boolean().default(false),
  applicationScopes: z.array(z.string()).default([]),
  parentProductId: ZId.nullable().default(null),
  features: z.array(ZPortableProductFeature).default([]),
  monitoredAssets: z.array(ZPortableAssetEcho).default([]),
});
export type TPortableProduct = z.output<typeof ZPortableProduct>;

export const ZPortableFeatureCatalogEntry = z.object({
  id: ZId,
  featureCode: z.string().min(1).max(100),
  name: z.string().max(200),
  units: z.string().nullable().default(null),
  metricName: z.string().nullable().default(null),
  featureType: z.string(),
  lifecycleStatus: z.string().default("Draft"),
  visibility: z.string().default("Public"),
  meterAggregationType: z.string().nullable().default(null),
  valueScore: z.number().nullable().default(null),
  enumOptions: z
    .array(z.object({ value: z.string(), description: z.string().nullable().default(null) }))
    .default([]),
  tags: ZTags,
  /** The product the entry was made for, if any. */
  productId: ZId.nullable().default(null),
  /** docs/api.md: null where the read does not compute it, as in a catalog export. */
  referencedBy: z.null().default(null),
});
export type TPortableFeatureCatalogEntry = z.output<typeof ZPortableFeatureCatalogEntry>;

export const ZPortableSuite = z.object({
  id: ZId,
  code: z.string().min(1).max(100),
  name: z.string().max(200),
  description: z.string().default(""),
  isImplicit: z.boolean().default(false),
  /** The product an implicit suite stands for (docs/api.md "Suite", isImplicit). */
  implicitProductId: ZId.nullable().default(null),
  members: z.array(z.object({ productId: ZId, sortOrder: z.number().int() })).default([]),
});
export type TPortableSuite = z.output<typeof ZPortableSuite>;

export const ZPortablePlanFeatureValue = z.object({
  featureCode: z.string(),
  metricName: z.string().nullable().default(null),
  enforcementType: z.string().default("SingleValue"),
  value: z.string().nullable().default(null),
  usageTiers: z.array(ZUsageTier).default([]),
});

export const ZPortablePlan = z.object({
  name: z.string(),
  description: z.string().default(""),
  sortOrder: z.number().int().default(0),
  pricingMode: z.string(),
  monthlyPrice: z.number().nullable().default(null),
  currency: z.string().nullable().default(null),
  relativeWeight: z.number().nullable().default(null),
  lineItems: z
    .array(
      z.object({
        productId: ZId,
        included: z.boolean().default(true),
        featureValues: z.array(ZPortablePlanFeatureValue).default([]),
      }),
    )
    .default([]),
});
export type TPortablePlan = z.output<typeof ZPortablePlan>;

/** A plan-set revision (the `plans` section). */
export const ZPortablePlanSet = z.object({
  id: ZId,
  suiteId: ZId,
  name: z.string().min(1).max(200),
  description: z.string().default(""),
  status: z.string().default("Draft"),
  /** Position in the suite's timeline; the natural key's `version`. */
  revision: z.number().int().default(1),
  plans: z.array(ZPortablePlan).default([]),
});
export type TPortablePlanSet = z.output<typeof ZPortablePlanSet>;

/** An entry an add-on grants, as the add-on API answers it (docs/api.md add-on `features`). */
export const ZPortableAddOnFeature = z.object({
  featureCatalogId: ZId,
  featureCode: z.string().nullable().default(null),
  name: z.string().nullable().default(null),
  featureType: z.string().nullable().default(null),
  units: z.string().nullable().default(null),
});

export const ZPortableAddOn = z.object({
  id: ZId,
  suiteId: ZId,
  code: z.string().min(1).max(100),
  name: z.string().max(200),
  description: z.string().default(""),
  status: z.string().default("Draft"),
  /** docs/api.md add-on `features`: the catalog entries it grants; an importer reads their ids. */
  features: z.array(ZPortableAddOnFeature).default([]),
  /** Older export files named the granted entries here instead of in `features`; still read (addOnGrantedIds). */
  featureCatalogIds: z.array(ZId).optional(),
  /** docs/api.md: null where not computed, such as in a catalog export. */
  referencedBy: z.null().default(null),
  featureValues: z
    .array(
      z.object({
        featureCode: z.string(),
        value: z.string().nullable().default(null),
        usageTiers: z.array(ZUsageTier).default([]),
        planTargets: z.array(z.string()).default([]),
        operation: z.string().default("Replace"),
      }),
    )
    .default([]),
});
export type TPortableAddOn = z.output<typeof ZPortableAddOn>;

/** The catalog entries an add-on item grants, from `features` (and the older `featureCatalogIds`). */
export const addOnGrantedIds = (a: Pick<TPortableAddOn, "features" | "featureCatalogIds">): string[] => [
  ...new Set([...a.features.map((f) => f.featureCatalogId), ...(a.featureCatalogIds ?? [])]),
];

export const ZPortableOfferGrant = z.object({
  addOnId: ZId,
  startsAt: ZTimestamp.nullable().default(null),
  expiresAt: ZTimestamp.nullable().default(null),
  reference: z.string().nullable().default(null),
  campaignId: ZId.nullable().default(null),
});

const ZJsonObject = z.record(z.string(), z.unknown());

/** An offer: the template (offer-template.ts, the fields it carries in the file) and the offer's own fields. */
export const ZPortableOffer = z.object(
  placeFieldsAfter(
    {
      id: ZId,
      ...templatePortableFields,
      status: z.string().default("Draft"),
      validityDays: z.number().int().nullable().default(null),
      billingTemplate: ZJsonObject.nullable().default(null),
      tags: ZTags,
      addOnGrants: z.array(ZPortableOfferGrant).default([]),
    },
    { description: ["status"], expirationDateTime: ["validityDays"], planName: ["billingTemplate"] },
  ),
);
export type TPortableOffer = z.output<typeof ZPortableOffer>;

export const ZPortableRatingCampaign = z.object({
  id: ZId,
  name: z.string().min(1).max(200),
  description: z.string().nullable().default(null),
  isEnabled: z.boolean().default(false),
  startsAt: ZTimestamp.nullable().default(null),
  endsAt: ZTimestamp.nullable().default(null),
  targets: z
    .array(
      z.object({
        featureCatalogId: ZId,
        question: z.string().nullable().default(null),
        priority: z.number().int().nullable().default(null),
      }),
    )
    .default([]),
  /** Empty asks every customer (docs/api.md). */
  offerIds: z.array(ZId).default([]),
});
export type TPortableRatingCampaign = z.output<typeof ZPortableRatingCampaign>;

export const portableItemSchemas = {
  tags: ZPortableTag,
  products: ZPortableProduct,
  featureCatalog: ZPortableFeatureCatalogEntry,
  monitoredAssets: ZPortableMonitoredAsset,
  suites: ZPortableSuite,
  plans: ZPortablePlanSet,
  addOns: ZPortableAddOn,
  entitlementOffers: ZPortableOffer,
  ratingCampaigns: ZPortableRatingCampaign,
} as const;

export type PortableItems = {
  tags: TPortableTag;
  products: TPortableProduct;
  featureCatalog: TPortableFeatureCatalogEntry;
  monitoredAssets: TPortableMonitoredAsset;
  suites: TPortableSuite;
  plans: TPortablePlanSet;
  addOns: TPortableAddOn;
  entitlementOffers: TPortableOffer;
  ratingCampaigns: TPortableRatingCampaign;
};
