import { z } from "zod";
import { ZMetricName } from "../../catalog/monitored-assets/metric-name.ts";
import { ZUsageTier, ZUsageTiers } from "../../catalog/monitored-assets/usage-tier.schemas.ts";
import { ZNumeric24_6 } from "../../../core/numeric.ts";

export const planSetStatuses = ["Draft", "Published", "Archived"] as const;
export const ZPlanSetStatus = z.enum(planSetStatuses);
export type TPlanSetStatus = z.infer<typeof ZPlanSetStatus>;

export const pricingModes = ["Absolute", "Relative"] as const;
export const ZPricingMode = z.enum(pricingModes);

/**
 * How a feature value is enforced (docs/decisions.md): `SingleValue` – the value is the limit and
 * tiers are read in usage units (startUsage/endUsage); `Percentage` – the value is the 100% base
 * and tiers are read as percentages of it (startPercentage/endPercentage).
 */
export const enforcementTypes = ["SingleValue", "Percentage"] as const;
export const ZEnforcementType = z.enum(enforcementTypes);

export const MAX_PLANS = 50;
export const MAX_LINE_ITEMS = 100;
export const MAX_FEATURE_VALUES = 200;

/** ISO 4217 codes the runtime knows (Node and browsers share the list). */
const isoCurrencies = new Set(Intl.supportedValuesOf("currency"));
export const isIsoCurrency = (code: string) => isoCurrencies.has(code);

/** docs/api.md "Feature value". featureName and units are read-only (server-populated) and ignored on write. */
export const ZPlanFeatureValueInput = z.object({
  featureCode: z.string().trim().min(1, "featureCode cannot be empty.").max(100),
  /** docs/api.md: the lowercase metric name; a feature code is not accepted in its place. Defaults to the catalog entry's. */
  metricName: ZMetricName.nullable().optional(),
  enforcementType: ZEnforcementType.default("SingleValue"),
  value: z.string().max(10_000).nullable().default(null),
  usageTiers: ZUsageTiers.nullable()
    .default([])
    .transform((v) => v ?? []),
});

export const ZLineItemInput = z.object({
  /** Required except when creating a plan set for a suite of one member (the server stamps it). */
  productId: z.string().uuid().nullable().optional(),
  included: z.boolean().default(true),
  featureValues: z
    .array(ZPlanFeatureValueInput)
    .max(MAX_FEATURE_VALUES)
    .nullable()
    .default([])
    .transform((v) => v ?? []),
});

const nullableAmount = (what: string) =>
  ZNumeric24_6(what).min(0, `${what} cannot be negative.`).nullable().default(null);

export const ZPlanInput = z.object({
  name: z.string().trim().min(1, "A plan needs a name.").max(100),
  description: z
    .string()
    .max(4000)
    .nullable()
    .default("")
    .transform((v) => v ?? ""),
  /** Defaults to the plan's position in the list. */
  sortOrder: z.number().int().nullable().optional(),
  pricingMode: ZPricingMode,
  /** docs/api.md: null = not priced yet (never free); 0 = free or trial; positive = paid. */
  monthlyPrice: nullableAmount("monthlyPrice"),
  currency: z
    .string()
    .trim()
    .nullable()
    .default(null)
    .transform((v) => (v ? v.toUpperCase() : null)),
  /** docs/api.md: an unbounded weight; null = not weighted yet (never zero); 0 = carries no weight. */
  relativeWeight: nullableAmount("relativeWeight"),
  lineItems: z
    .array(ZLineItemInput)
    .max(MAX_LINE_ITEMS)
    .nullable()
    .default([])
    .transform((v) => v ?? []),
});
export type TPlanInput = z.infer<typeof ZPlanInput>;

/**
 * docs/api.md's five plan rules that need no database: one pricingMode per set; Absolute refuses
 * relativeWeight; Relative refuses monthlyPrice and currency; currency is an ISO 4217 code,
 * required when monthlyPrice is positive. Plan names are unique in a set (entitlements and
 * add-on planTargets name plans).
 */
function checkPlans(plans: readonly TPlanInput[], ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: "custom", path: ["plans", ...path], message });
  const mode = plans[0]?.pricingMode;
  const names = new Set<string>();
  plans.forEach((plan, i) => {
    if (plan.pricingMode !== mode)
      issue(
        [i, "pricingMode"],
        `Every plan of a set has the same pricingMode (${mode}, like the first plan).`,
      );
    if (plan.pricingMode === "Absolute" && plan.relativeWeight !== null)
      issue([i, "relativeWeight"], "An Absolute plan takes no relativeWeight.");
    if (plan.pricingMode === "Relative" && plan.monthlyPrice !== null)
      issue([i, "monthlyPrice"], "A Relative plan takes no monthlyPrice.");
    if (plan.pricingMode === "Relative" && plan.currency !== null)
      issue([i, "currency"], "A Relative plan takes no currency.");
    if (plan.currency !== null && !isIsoCurrency(plan.currency))
      issue([i, "currency"], `"${plan.currency}" is not an ISO 4217 currency code.`);
    if (
      plan.pricingMode === "Absolute" &&
      plan.monthlyPrice !== null &&
      plan.monthlyPrice > 0 &&
      plan.currency === null
    ) {
      issue([i, "currency"], "A paid plan (monthlyPrice above 0) needs an ISO 4217 currency.");
    }
    const key = plan.name.toLowerCase();
    if (names.has(key)) issue([i, "name"], `Plan names are unique in a set; "${plan.name}" is used twice.`);
    names.add(key);
  });
}

const ZPlans = z.array(ZPlanInput).max(MAX_PLANS, `A plan set has at most ${MAX_PLANS} plans.`);

/**
 * POST /admin/usage-plans/plan-sets. Name either the suite (`suiteId`) or, to price one product,
 * the product (`productId`): its plan set belongs to the product's implicit suite, created the
 * first time. The new revision is a Draft.
 */
export const ZPlanSetCreateRequest = z
  .object({
    suiteId: z.string().uuid().nullable().optional(),
    productId: z.string().uuid().nullable().optional(),
    name: z.string().trim().min(1, "A plan set needs a name.").max(200),
    description: z
      .string()
      .max(4000)
      .nullable()
      .default("")
      .transform((v) => v ?? ""),
    plans: ZPlans.nullable()
      .default([])
      .transform((v) => v ?? []),
  })
  .superRefine((v, ctx) => {
    if (!v.suiteId === !v.productId)
      ctx.addIssue({
        code: "custom",
        path: ["suiteId"],
        message: "Give either suiteId or productId (to price one product).",
      });
    checkPlans(v.plans, ctx);
  });
export type TPlanSetCreateRequest = z.infer<typeof ZPlanSetCreateRequest>;

/**
 * docs/api.md PUT /admin/usage-plans/plan-sets/{planSetId}: name, description, status, plans (null keeps
 * the plans; a list replaces them). `status` moves nothing: it may repeat the revision's status
 * (or say Draft when editing a Published revision); any other value is refused.
 */
export const ZPlanSetUpdateRequest = z
  .object({
    name: z.string().trim().min(1, "A plan set needs a name.").max(200),
    description: z
      .string()
      .max(4000)
      .nullable()
      .default("")
      .transform((v) => v ?? ""),
    status: ZPlanSetStatus.nullable().optional(),
    plans: ZPlans.nullable().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.plans) checkPlans(v.plans, ctx);
  });
export type TPlanSetUpdateRequest = z.infer<typeof ZPlanSetUpdateRequest>;

/** PUT .../{planSetId}/status: the only way a revision moves. */
export const ZPlanSetStatusRequest = z.object({ status: ZPlanSetStatus });
export type TPlanSetStatusRequest = z.infer<typeof ZPlanSetStatusRequest>;

export const ZPlanFeatureValueResponse = z.object({
  featureCode: z.string(),
  metricName: z.string().nullable(),
  featureName: z.string().nullable(),
  units: z.string().nullable(),
  enforcementType: z.string(),
  value: z.string().nullable(),
  usageTiers: z.array(ZUsageTier),
});

export const ZLineItemResponse = z.object({
  productId: z.string().uuid(),
  productCode: z.string().nullable(),
  included: z.boolean(),
  featureValues: z.array(ZPlanFeatureValueResponse),
});

export const ZPlanResponse = z.object({
  id: z.string().uuid(),
  name: z.string(),
  description: z.string(),
  sortOrder: z.number().int(),
  pricingMode: z.string(),
  monthlyPrice: z.number().nullable(),
  currency: z.string().nullable(),
  relativeWeight: z.number().nullable(),
  lineItems: z.array(ZLineItemResponse),
});
export type TPlanResponse = z.infer<typeof ZPlanResponse>;

export const ZPlanSetResponse = z.object({
  id: z.string().uuid(),
  suiteId: z.string().uuid(),
  suiteName: z.string(),
  suiteIsImplicit: z.boolean(),
  name: z.string(),
  description: z.string(),
  status: ZPlanSetStatus,
  /** Position in the suite's revision timeline (1, 2, 3...). */
  revision: z.number().int(),
  revisionDate: z.string(),
  /** The revision this one was copied from (the published revision an edit landed beside). */
  sourcePlanSetId: z.string().uuid().nullable(),
  publishedAt: z.string().nullable(),
  archivedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  plans: z.array(ZPlanResponse),
});
export type TPlanSetResponse = z.infer<typeof ZPlanSetResponse>;

export const ZPlanSetIdParams = z.object({ planSetId: z.string().uuid() });
