import { z } from "zod";
import { ZUsageTier, ZUsageTiers } from "../../catalog/monitored-assets/usage-tier.schemas.ts";

/** docs/api.md: `Draft` is a value and add-ons can be archived; nothing leaves Archived. */
export const addOnStatuses = ["Draft", "Archived"] as const;
export const ZAddOnStatus = z.enum(addOnStatuses);

/**
 * How an add-on value combines with the plan's value for the same feature (docs/decisions.md):
 * - `Replace`: the add-on's value replaces the plan's (any feature type; checked per type);
 * - `Add`: the add-on's positive number is added to the plan's (Numeric and Metered features);
 * - `Tiered`: the add-on's usageTiers replace the plan's tiers (Metered features; value unused).
 */
export const addOnOperations = ["Replace", "Add", "Tiered"] as const;
export const ZAddOnOperation = z.enum(addOnOperations);

export const MAX_ADD_ON_FEATURES = 100;
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

export const ZAddOnFeatureValueInput = z
  .object({
    featureCode: z.string().trim().min(1, "featureCode cannot be empty.").max(100),
    value: z.string().max(10_000).nullable().default(null),
    usageTiers: ZUsageTiers.nullable()
      .default([])
      .transform((v) => v ?? []),
    /** Plan names the value applies to; empty = every plan. */
    planTargets: z
      .array(z.string().trim().min(1, "A plan target names a plan.").max(100))
      .max(50)
      .nullable()
      .default([])
      .transform((v) => v ?? []),
    operation: ZAddOnOperation.default("Replace"),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (v.operation === "Tiered") {
      if (v.usageTiers.length === 0) issue("usageTiers", "A Tiered value needs usageTiers.");
      if (v.value !== null && v.value !== "")
        issue("value", "A Tiered value takes no value (its usageTiers apply).");
    } else {
      if (v.value === null) issue("value", `A ${v.operation} value needs a value.`);
      if (v.usageTiers.length) issue("usageTiers", "usageTiers are only used with operation Tiered.");
      if (
        v.operation === "Add" &&
        v.value !== null &&
        !(DECIMAL.test(v.value.trim()) && Number(v.value) > 0)
      ) {
        issue("value", "An Add value is a positive number (added to the plan's).");
      }
    }
    const keys = v.planTargets.map((t) => t.toLowerCase());
    if (new Set(keys).size !== keys.length) issue("planTargets", "A plan is targeted once.");
  });
export type TAddOnFeatureValueInput = z.infer<typeof ZAddOnFeatureValueInput>;

const targetsOverlap = (a: readonly string[], b: readonly string[]) =>
  a.length === 0 || b.length === 0 || a.some((t) => b.some((u) => u.toLowerCase() === t.toLowerCase()));

/** Two values of one feature would both apply to some plan: which one wins would be arbitrary. */
function checkFeatureValues(values: readonly TAddOnFeatureValueInput[], ctx: z.RefinementCtx): void {
  values.forEach((v, i) => {
    const earlier = values.findIndex(
      (w, j) =>
        j < i &&
        w.featureCode.toUpperCase() === v.featureCode.toUpperCase() &&
        targetsOverlap(w.planTargets, v.planTargets),
    );
    if (earlier >= 0) {
      ctx.addIssue({
        code: "custom",
        path: ["featureValues", i, "planTargets"],
        message: `${v.featureCode.toUpperCase()} already has a value for these plans (featureValues.${earlier}); give each value distinct planTargets.`,
      });
    }
  });
}

const ZFeatureCatalogIds = z
  .array(z.string().uuid())
  .max(MAX_ADD_ON_FEATURES)
  .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, {
    message: "A feature is listed once.",
  });
const ZFeatureValues = z.array(ZAddOnFeatureValueInput).max(MAX_ADD_ON_FEATURES);

const common = {
  code: z.string().trim().min(1, "An add-on code cannot be empty.").max(100),
  name: z.string().trim().min(1, "An add-on needs a name.").max(200),
  description: z
    .string()
    .max(4000)
    .nullable()
    .default("")
    .transform((v) => v ?? ""),
};

/**
 * POST /admin/usage-plans/add-ons. `features` of the response = featureCatalogIds plus the entry
 * of every featureValue (a value's feature is always granted).
 */
export const ZAddOnCreateRequest = z
  .object({
    suiteId: z.string().uuid(),
    ...common,
    featureCatalogIds: ZFeatureCatalogIds.nullable()
      .default([])
      .transform((v) => v ?? []),
    featureValues: ZFeatureValues.nullable()
      .default([])
      .transform((v) => v ?? []),
  })
  .superRefine((v, ctx) => checkFeatureValues(v.featureValues, ctx));
export type TAddOnCreateRequest = z.infer<typeof ZAddOnCreateRequest>;

/** PUT: replaces code, name and description; featureCatalogIds and featureValues null = unchanged. */
export const ZAddOnUpdateRequest = z
  .object({
    /** An add-on stays in its suite: when given, it must be the add-on's suite. */
    suiteId: z.string().uuid().nullable().optional(),
    ...common,
    featureCatalogIds: ZFeatureCatalogIds.nullable().optional(),
    featureValues: ZFeatureValues.nullable().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.featureValues) checkFeatureValues(v.featureValues, ctx);
  });
export type TAddOnUpdateRequest = z.infer<typeof ZAddOnUpdateRequest>;

export const ZAddOnFeature = z.object({
  featureCatalogId: z.string().uuid(),
  featureCode: z.string().nullable(),
  name: z.string().nullable(),
  featureType: z.string().nullable(),
  units: z.string().nullable(),
  isDeleted: z.boolean(),
});

export const ZAddOnFeatureValueResponse = z.object({
  featureCode: z.string(),
  featureName: z.string().nullable(),
  units: z.string().nullable(),
  value: z.string().nullable(),
  usageTiers: z.array(ZUsageTier),
  planTargets: z.array(z.string()),
  operation: z.string(),
});

export const ZAddOnReferencedBy = z.object({ entitlements: z.number().int(), offers: z.number().int() });

export const ZAddOnResponse = z.object({
  id: z.string().uuid(),
  suiteId: z.string().uuid(),
  suiteName: z.string(),
  code: z.string(),
  name: z.string(),
  description: z.string(),
  status: ZAddOnStatus,
  features: z.array(ZAddOnFeature),
  featureValues: z.array(ZAddOnFeatureValueResponse),
  /** Entitlements and offers holding a grant (revoked and expired grants included); null in lists. */
  referencedBy: ZAddOnReferencedBy.nullable(),
  archivedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TAddOnResponse = z.infer<typeof ZAddOnResponse>;

export const ZAddOnIdParams = z.object({ addOnId: z.string().uuid() });
export const ZAddOnFeatureParams = z.object({
  addOnId: z.string().uuid(),
  featureCatalogId: z.string().uuid(),
});
