import { z } from "zod";
import { ZRecordTags } from "../tags/tag.schemas.ts";
import { ZMonitoredAssetResponse } from "../monitored-assets/monitored-asset.schemas.ts";

/**
 * Product status values and the moves between them (docs/decisions.md, "Products"):
 * Draft → Active | Retired; Active → Deprecated | Retired; Deprecated → Active | Retired;
 * nothing leaves Retired. Staying in the same status is not a move.
 */
export const productStatuses = ["Draft", "Active", "Deprecated", "Retired"] as const;
export const ZProductStatus = z.enum(productStatuses);
export type TProductStatus = z.infer<typeof ZProductStatus>;

export const productStatusMoves: Record<TProductStatus, readonly TProductStatus[]> = {
  Draft: ["Active", "Retired"],
  Active: ["Deprecated", "Retired"],
  Deprecated: ["Active", "Retired"],
  Retired: [],
};

/** docs/api.md: empty, or one to four dot-separated numbers; prerelease and build suffixes are refused. */
export const PRODUCT_VERSION_PATTERN = /^(?:\d{1,9}(?:\.\d{1,9}){0,3})?$/;
export const ZProductVersion = z
  .string()
  .trim()
  .max(50)
  .regex(
    PRODUCT_VERSION_PATTERN,
    "productVersion is empty or one to four dot-separated numbers (e.g. 2, 2.1, 2.1.0.7); no prerelease or build suffix.",
  );

export const ZProductCode = z
  .string()
  .trim()
  .min(1, "A product code cannot be empty.")
  .max(100)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
    "A product code holds letters, digits, '.', '_' and '-' and starts with a letter or digit.",
  );

export const propertyVisibilities = ["Public", "Private"] as const;

export const ZProperty = z.object({
  /** Defaults to the property's name in the map. */
  key: z.string().trim().min(1).max(200).optional(),
  value: z.string().max(10_000).default(""),
  metadata: z
    .array(z.object({ key: z.string().trim().min(1).max(200), value: z.string().max(2_000) }))
    .max(50)
    .default([]),
  /** Public properties are returned with license metadata on activation; Private stay vendor-side. */
  visibility: z.enum(propertyVisibilities).default("Private"),
});

const ZPropertyName = z.string().trim().min(1, "A property name cannot be empty.").max(200);
/** Full map, as PUT and POST take it. */
export const ZPropertyValues = z
  .record(ZPropertyName, ZProperty)
  .refine((m) => Object.keys(m).length <= 100, "At most 100 properties.");
/** PATCH: keys given are set; a key whose value is null is removed; other keys stay. */
export const ZPropertyValuesPatch = z.record(ZPropertyName, ZProperty.nullable());

const ZDateTime = z.iso.datetime({
  offset: true,
  message: "An ISO 8601 date-time with a time zone (e.g. 2027-01-31T00:00:00Z).",
});
const ZApplicationScopes = z.array(z.string().trim().min(1).max(200)).max(100);

/** Fields a product is created with; PUT takes the same set (full replace). */
const productFields = {
  name: z.string().trim().min(1, "A product needs a name.").max(200),
  description: z.string().max(10_000).default(""),
  productCode: ZProductCode,
  productVersion: ZProductVersion.default(""),
  status: ZProductStatus.optional(),
  expirationDate: ZDateTime.nullable().optional(),
  externalId: z.string().trim().max(200).nullable().optional(),
  tags: ZRecordTags,
  propertyValues: ZPropertyValues.default({}),
  isLocked: z.boolean().default(false),
  applicationScopes: ZApplicationScopes.default([]),
  parentProductId: z.string().uuid().nullable().optional(),
};

export const ZProductCreateRequest = z.object(productFields);
export type TProductCreateRequest = z.infer<typeof ZProductCreateRequest>;

/**
 * PUT: the product's own editable fields, replaced as a whole (absent optional fields take their
 * defaults). Features and monitored assets have their own endpoints; tags follow the tags-on-records
 * rule (null or absent leaves them). `status` and `isLocked` absent keep their current values.
 */
export const ZProductReplaceRequest = z.object({
  ...productFields,
  /** Absent keeps the lock as it is, so a PUT cannot unlock a product by leaving the flag out. */
  isLocked: z.boolean().optional(),
  revisionNumber: z.number().int().positive().optional(),
});
export type TProductReplaceRequest = z.infer<typeof ZProductReplaceRequest>;

/** Merge-PATCH: absent or null leaves a field; `clear*` sentinels clear nullable ones. */
export const ZProductUpdateRequest = z
  .object({
    name: productFields.name.nullable().optional(),
    description: z.string().max(10_000).nullable().optional(),
    productCode: ZProductCode.nullable().optional(),
    productVersion: ZProductVersion.nullable().optional(),
    status: ZProductStatus.nullable().optional(),
    expirationDate: ZDateTime.nullable().optional(),
    clearExpirationDate: z.boolean().optional(),
    externalId: z.string().trim().max(200).nullable().optional(),
    clearExternalId: z.boolean().optional(),
    tags: ZRecordTags,
    propertyValues: ZPropertyValuesPatch.nullable().optional(),
    isLocked: z.boolean().nullable().optional(),
    applicationScopes: ZApplicationScopes.nullable().optional(),
    parentProductId: z.string().uuid().nullable().optional(),
    clearParentProductId: z.boolean().optional(),
    revisionNumber: z.number().int().positive().optional(),
  })
  .refine((v) => !(v.clearExpirationDate && v.expirationDate), {
    message: "Give either expirationDate or clearExpirationDate, not both.",
    path: ["clearExpirationDate"],
  })
  .refine((v) => !(v.clearExternalId && v.externalId), {
    message: "Give either externalId or clearExternalId, not both.",
    path: ["clearExternalId"],
  })
  .refine((v) => !(v.clearParentProductId && v.parentProductId), {
    message: "Give either parentProductId or clearParentProductId, not both.",
    path: ["clearParentProductId"],
  });
export type TProductUpdateRequest = z.infer<typeof ZProductUpdateRequest>;

export const featureVisibilities = ["Public", "Internal"] as const;
export const ZFeatureVisibility = z.enum(featureVisibilities);

/** POST /admin/products/{id}/features: attach a catalog entry with the product's value for it. */
export const ZProductFeatureCreateRequest = z.object({
  featureCatalogId: z.string().uuid(),
  moduleName: z.string().trim().max(200).nullable().optional(),
  /** Defaults to the catalog entry's name. */
  name: z.string().trim().min(1).max(200).nullable().optional(),
  description: z.string().max(10_000).default(""),
  value: z.string().nullable().default(null),
  isEnabled: z.boolean().default(true),
  includeInLicenseToken: z.boolean().default(true),
  isAvailableDuringTrialPeriod: z.boolean().default(true),
  isAvailableDuringGracePeriod: z.boolean().default(true),
  isPaidFeature: z.boolean().default(false),
  canModifyValueOnEntitlement: z.boolean().default(false),
  /** Defaults to the catalog entry's visibility. */
  visibility: ZFeatureVisibility.nullable().optional(),
  /** Position in the product's feature list (1-based); absent appends. Later features move down. */
  sortOrder: z.number().int().min(1).nullable().optional(),
});
export type TProductFeatureCreateRequest = z.infer<typeof ZProductFeatureCreateRequest>;

/** Merge-PATCH of a product feature; `clearValue` unsets the value, `sortOrder` moves it. */
export const ZProductFeatureUpdateRequest = z
  .object({
    moduleName: z.string().trim().max(200).nullable().optional(),
    clearModuleName: z.boolean().optional(),
    name: z.string().trim().min(1).max(200).nullable().optional(),
    description: z.string().max(10_000).nullable().optional(),
    value: z.string().nullable().optional(),
    clearValue: z.boolean().optional(),
    isEnabled: z.boolean().nullable().optional(),
    includeInLicenseToken: z.boolean().nullable().optional(),
    isAvailableDuringTrialPeriod: z.boolean().nullable().optional(),
    isAvailableDuringGracePeriod: z.boolean().nullable().optional(),
    isPaidFeature: z.boolean().nullable().optional(),
    canModifyValueOnEntitlement: z.boolean().nullable().optional(),
    visibility: ZFeatureVisibility.nullable().optional(),
    sortOrder: z.number().int().min(1).nullable().optional(),
    revisionNumber: z.number().int().positive().optional(),
  })
  .refine((v) => !(v.clearValue && v.value != null), {
    message: "Give either value or clearValue, not both.",
    path: ["clearValue"],
  })
  .refine((v) => !(v.clearModuleName && v.moduleName != null), {
    message: "Give either moduleName or clearModuleName, not both.",
    path: ["clearModuleName"],
  });
export type TProductFeatureUpdateRequest = z.infer<typeof ZProductFeatureUpdateRequest>;

export const ZEnumOption = z.object({ value: z.string(), description: z.string().nullable() });

export const ZProductFeatureResponse = z.object({
  id: z.string().uuid(),
  productId: z.string().uuid(),
  featureCatalogId: z.string().uuid(),
  featureCode: z.string(),
  moduleName: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  /** The catalog entry's metricName (a Metered feature reports under it). */
  usageMetric: z.string().nullable(),
  units: z.string().nullable(),
  featureType: z.string(),
  enumOptions: z.array(ZEnumOption),
  value: z.string().nullable(),
  isEnabled: z.boolean(),
  includeInLicenseToken: z.boolean(),
  isAvailableDuringTrialPeriod: z.boolean(),
  isAvailableDuringGracePeriod: z.boolean(),
  isPaidFeature: z.boolean(),
  canModifyValueOnEntitlement: z.boolean(),
  meterAggregationType: z.string().nullable(),
  visibility: z.string(),
  /** The catalog entry's lifecycle status, so a Disabled or Archived entry shows on the product. */
  catalogLifecycleStatus: z.string(),
  sortOrder: z.number().int(),
  isDeleted: z.boolean(),
  creationTimeStamp: z.string(),
  lastUpdateTimeStamp: z.string(),
  revisionNumber: z.number().int(),
});
export type TProductFeatureResponse = z.infer<typeof ZProductFeatureResponse>;

export const ZProductMetric = z.object({
  id: z.string().uuid(),
  productId: z.string().uuid(),
  metricName: z.string(),
  name: z.string(),
  description: z.string(),
  metricType: z.string(),
  unit: z.string(),
  category: z.string(),
  numberFormat: z.string(),
});

export const ZPropertyResponse = z.object({
  key: z.string(),
  value: z.string(),
  metadata: z.array(z.object({ key: z.string(), value: z.string() })),
  visibility: z.enum(propertyVisibilities),
});

export const ZProductReferencedBy = z.object({
  entitlements: z.number().int(),
  offers: z.number().int(),
  suites: z.number().int(),
  planSets: z.number().int(),
  features: z.number().int(),
});
export type TProductReferencedBy = z.infer<typeof ZProductReferencedBy>;

export const ZProductResponse = z.object({
  id: z.string().uuid(),
  status: z.string(),
  providerId: z.string().uuid(),
  name: z.string(),
  description: z.string(),
  productCode: z.string(),
  productVersion: z.string(),
  expirationDate: z.string().nullable(),
  externalId: z.string().nullable(),
  tags: z.array(z.string()),
  features: z.array(ZProductFeatureResponse),
  monitoredAssets: z.array(ZMonitoredAssetResponse),
  metrics: z.array(ZProductMetric),
  propertyValues: z.record(z.string(), ZPropertyResponse),
  isDeleted: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  revisionNumber: z.number().int(),
  isLocked: z.boolean(),
  applicationScopes: z.array(z.string()),
  parentProductId: z.string().uuid().nullable(),
  referencedBy: ZProductReferencedBy,
});
export type TProductResponse = z.infer<typeof ZProductResponse>;

export const ZProductListQuery = z.object({
  includeDeleted: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v === "true"),
});

export const ZProductIdParams = z.object({ id: z.string().uuid() });
export const ZProductFeatureParams = z.object({ id: z.string().uuid(), featureId: z.string().uuid() });
