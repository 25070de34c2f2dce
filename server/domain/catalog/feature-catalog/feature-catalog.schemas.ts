import { z } from "zod";
import { ZRecordTags } from "../tags/tag.schemas.ts";
import { ZMetricName } from "../monitored-assets/metric-name.ts";
import { featureTypes } from "./feature-value.ts";
import { metricTypes } from "../monitored-assets/monitored-asset.schemas.ts";
import { ZEnumOption, ZFeatureVisibility } from "../products/product.schemas.ts";

export const ZFeatureType = z.enum(featureTypes);

/**
 * Lifecycle of a catalog entry and the allowed moves (docs/decisions.md, "Feature catalog"):
 * Draft → Preview | Published | Archived; Preview → Draft | Published | Archived;
 * Published → Disabled | Archived; Disabled → Published | Archived; nothing leaves Archived.
 */
export const lifecycleStatuses = ["Draft", "Preview", "Published", "Disabled", "Archived"] as const;
export const ZLifecycleStatus = z.enum(lifecycleStatuses);
export type TLifecycleStatus = z.infer<typeof ZLifecycleStatus>;
export const lifecycleMoves: Record<TLifecycleStatus, readonly TLifecycleStatus[]> = {
  Draft: ["Preview", "Published", "Archived"],
  Preview: ["Draft", "Published", "Archived"],
  Published: ["Disabled", "Archived"],
  Disabled: ["Published", "Archived"],
  Archived: [],
};

/** Feature codes are stored uppercase: `api-calls` is stored as `API-CALLS`. */
export const ZFeatureCode = z
  .string()
  .trim()
  .min(1, "A feature code cannot be empty.")
  .max(100)
  .transform((code) => code.toUpperCase())
  .pipe(
    z
      .string()
      .regex(
        /^[A-Z0-9][A-Z0-9_.-]*$/,
        "A feature code holds letters, digits, '_', '.' and '-' and starts with a letter or digit.",
      ),
  );

export const ZEnumOptionInput = z.object({
  value: z.string().trim().min(1, "An option needs a value.").max(200),
  description: z.string().max(1_000).nullable().default(null),
});

const ZEnumOptions = z
  .array(ZEnumOptionInput)
  .max(100)
  .superRefine((options, ctx) => {
    const seen = new Set<string>();
    options.forEach((o, i) => {
      if (seen.has(o.value))
        ctx.addIssue({ code: "custom", path: [i, "value"], message: `Option "${o.value}" is listed twice.` });
      seen.add(o.value);
    });
  });

const editableFields = {
  name: z.string().trim().min(1, "A feature needs a name.").max(200),
  units: z.string().trim().max(50).nullable().default(null),
  metricName: ZMetricName.nullable().default(null),
  featureType: ZFeatureType,
  visibility: ZFeatureVisibility.default("Public"),
  meterAggregationType: z.enum(metricTypes).nullable().default(null),
  /** null = not valued: contributes nothing to value-delivered analytics. */
  valueScore: z.number().finite().min(0, "valueScore cannot be negative.").nullable().default(null),
  enumOptions: ZEnumOptions.nullable().default(null),
  tags: ZRecordTags,
};

type TypeRuleInput = {
  featureType: string;
  enumOptions: { value: string }[] | null;
  metricName: string | null;
};

/** Enumeration needs options (and only it has them); Metered needs the metric it reports under. */
function checkTypeRules(v: TypeRuleInput, ctx: z.RefinementCtx) {
  if (v.featureType === "Enumeration" && !v.enumOptions?.length) {
    ctx.addIssue({
      code: "custom",
      path: ["enumOptions"],
      message: "An Enumeration feature needs at least one enumOption.",
    });
  }
  if (v.featureType !== "Enumeration" && v.enumOptions?.length) {
    ctx.addIssue({
      code: "custom",
      path: ["enumOptions"],
      message: "Only Enumeration features have enumOptions.",
    });
  }
  if (v.featureType === "Metered" && !v.metricName) {
    ctx.addIssue({
      code: "custom",
      path: ["metricName"],
      message: "A Metered feature needs the metricName it reports under.",
    });
  }
}

export const ZFeatureCatalogCreateRequest = z
  .object({
    ...editableFields,
    featureCode: ZFeatureCode,
    /** The product the entry was made for, if any. */
    productId: z.string().uuid().nullable().default(null),
    /** Initial status only; later moves go through PUT .../lifecycle. */
    lifecycleStatus: ZLifecycleStatus.default("Draft"),
  })
  .superRefine(checkTypeRules);
export type TFeatureCatalogCreateRequest = z.infer<typeof ZFeatureCatalogCreateRequest>;

const notEditableHere = (field: string, endpoint: string) =>
  `${field} is not editable here; use ${endpoint}.`;

/**
 * PUT /admin/feature-catalog/{id}: replaces name, units, metricName, featureType, visibility,
 * meterAggregationType, valueScore, enumOptions and tags. featureCode and lifecycleStatus have
 * their own endpoints: a body naming them is refused (400), not silently ignored.
 */
export const ZFeatureCatalogReplaceRequest = z
  .object({
    ...editableFields,
    featureCode: z.unknown().optional(),
    lifecycleStatus: z.unknown().optional(),
    revisionNumber: z.number().int().positive().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.featureCode !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["featureCode"],
        message: notEditableHere("featureCode", "PUT /admin/feature-catalog/{id}/code"),
      });
    if (v.lifecycleStatus !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["lifecycleStatus"],
        message: notEditableHere("lifecycleStatus", "PUT /admin/feature-catalog/{id}/lifecycle"),
      });
    }
    checkTypeRules(v, ctx);
  })
  .transform(({ featureCode: _code, lifecycleStatus: _status, ...rest }) => rest);
export type TFeatureCatalogReplaceRequest = z.infer<typeof ZFeatureCatalogReplaceRequest>;

export const ZFeatureLifecycleRequest = z.object({
  lifecycleStatus: ZLifecycleStatus,
  revisionNumber: z.number().int().positive().optional(),
});
export type TFeatureLifecycleRequest = z.infer<typeof ZFeatureLifecycleRequest>;

export const ZFeatureCodeRequest = z.object({
  featureCode: ZFeatureCode,
  revisionNumber: z.number().int().positive().optional(),
});
export type TFeatureCodeRequest = z.infer<typeof ZFeatureCodeRequest>;

export const ZFeatureReferencedBy = z.object({
  products: z.number().int(),
  entitlements: z.number().int(),
  offers: z.number().int(),
  planSets: z.number().int(),
  addOns: z.number().int(),
  ratingCampaigns: z.number().int(),
});
export type TFeatureReferencedBy = z.infer<typeof ZFeatureReferencedBy>;

export const ZFeatureCatalogResponse = z.object({
  id: z.string().uuid(),
  productId: z.string().uuid().nullable(),
  featureCode: z.string(),
  name: z.string(),
  units: z.string().nullable(),
  metricName: z.string().nullable(),
  featureType: z.string(),
  lifecycleStatus: z.string(),
  visibility: z.string(),
  meterAggregationType: z.string().nullable(),
  valueScore: z.number().nullable(),
  enumOptions: z.array(ZEnumOption),
  tags: z.array(z.string()),
  isDeleted: z.boolean(),
  creationTimeStamp: z.string(),
  lastUpdateTimeStamp: z.string(),
  revisionNumber: z.number().int(),
  /** Computed on the single read; null in lists. */
  referencedBy: ZFeatureReferencedBy.nullable(),
});
export type TFeatureCatalogResponse = z.infer<typeof ZFeatureCatalogResponse>;

export const ZFeatureCatalogListQuery = z.object({
  includeDeleted: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v === "true"),
});

export const ZFeatureCatalogIdParams = z.object({ id: z.string().uuid() });
