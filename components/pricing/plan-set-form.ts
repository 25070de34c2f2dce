import type { TPlanSetResponse } from "@/server/domain/pricing/plan-sets/plan-set.schemas";
import { tierRow } from "../catalog/monitored-assets/tier-table-editor";
import type { ComparedPlan, ComparedPlans } from "../licensing/consumer-plans-list";
import { formatMoney, formatQuantity } from "../ui/format";
import { planFeatures } from "@/server/domain/entitlements/plans/plan-features";

/**
 * The plan editor's state: what the inputs hold (numbers as typed text), and its conversion to the
 * shared request schema's input. The set has one pricing mode (docs/api.md "Usage plan set"), so it is chosen
 * once for every plan.
 */
export type TierForm = {
  key: string;
  name: string;
  startUsage: string;
  endUsage: string;
  startPercentage: string;
  endPercentage: string;
  baseCredits: string;
  creditsPerUnitOfConsumption: string;
  quotaUsageLevel: string;
  quotaUsagePolicy: string;
  fundingBalanceMetric: string;
};
export type FeatureValueForm = {
  key: string;
  featureCode: string;
  metricName: string;
  enforcementType: string;
  value: string;
  usageTiers: TierForm[];
};
export type LineItemForm = {
  key: string;
  productId: string;
  included: boolean;
  featureValues: FeatureValueForm[];
};
export type PlanForm = {
  key: string;
  name: string;
  description: string;
  /** As the kit's number field holds it: a number, null when blank (not priced / not weighted). */
  monthlyPrice: number | null;
  currency: string;
  relativeWeight: number | null;
  lineItems: LineItemForm[];
};
export type PlanSetForm = {
  name: string;
  description: string;
  pricingMode: "Absolute" | "Relative";
  plans: PlanForm[];
};

let counter = 0;
export const newKey = () => `k${++counter}`;

export function emptyTier(start = 0): TierForm {
  return {
    key: newKey(),
    name: "",
    startUsage: String(start),
    endUsage: "",
    startPercentage: "0",
    endPercentage: "0",
    baseCredits: "0",
    creditsPerUnitOfConsumption: "0",
    quotaUsageLevel: "None",
    quotaUsagePolicy: "None",
    fundingBalanceMetric: "",
  };
}

export const emptyPlan = (): PlanForm => ({
  key: newKey(),
  name: "",
  description: "",
  monthlyPrice: null,
  currency: "",
  relativeWeight: null,
  lineItems: [],
});

/** A saved tier as the tier table edits it (the monitored asset's tier row, keyed for the list). */
export const tierFormOf = (t: Parameters<typeof tierRow>[0]): TierForm => ({ key: newKey(), ...tierRow(t) });

export function formOf(planSet: TPlanSetResponse): PlanSetForm {
  return {
    name: planSet.name,
    description: planSet.description,
    pricingMode: (planSet.plans[0]?.pricingMode as "Absolute" | "Relative" | undefined) ?? "Absolute",
    plans: planSet.plans.map((p) => ({
      key: newKey(),
      name: p.name,
      description: p.description,
      monthlyPrice: p.monthlyPrice,
      currency: p.currency ?? "",
      relativeWeight: p.relativeWeight,
      lineItems: p.lineItems.map((li) => ({
        key: newKey(),
        productId: li.productId,
        included: li.included,
        featureValues: li.featureValues.map((fv) => ({
          key: newKey(),
          featureCode: fv.featureCode,
          metricName: fv.metricName ?? "",
          enforcementType: fv.enforcementType,
          value: fv.value ?? "",
          usageTiers: fv.usageTiers.map(tierFormOf),
        })),
      })),
    })),
  };
}

/** "" is null (not priced / not weighted / open-ended); anything else is read as a number. */
const num = (value: string | number | null | undefined): number | null => {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return value;
  return value.trim() === "" ? null : Number(value.trim());
};

/** A tier table row as the request's tier: blanks are 0, a blank end is open-ended. */
export function tierRequestOf(t: TierForm) {
  return {
    name: t.name,
    startUsage: num(t.startUsage) ?? 0,
    endUsage: num(t.endUsage),
    startPercentage: num(t.startPercentage) ?? 0,
    endPercentage: num(t.endPercentage) ?? 0,
    baseCredits: num(t.baseCredits) ?? 0,
    creditsPerUnitOfConsumption: num(t.creditsPerUnitOfConsumption) ?? 0,
    quotaUsageLevel: t.quotaUsageLevel,
    quotaUsagePolicy: t.quotaUsagePolicy,
    fundingBalanceMetric: t.fundingBalanceMetric,
  };
}

export function requestOf(form: PlanSetForm, status?: string | null): unknown {
  const absolute = form.pricingMode === "Absolute";
  return {
    name: form.name,
    description: form.description,
    ...(status ? { status } : {}),
    plans: form.plans.map((p, i) => ({
      name: p.name,
      description: p.description,
      sortOrder: i,
      pricingMode: form.pricingMode,
      monthlyPrice: absolute ? num(p.monthlyPrice) : null,
      currency: absolute && p.currency.trim() ? p.currency.trim() : null,
      relativeWeight: absolute ? null : num(p.relativeWeight),
      lineItems: p.lineItems.map((li) => ({
        productId: li.productId,
        included: li.included,
        featureValues: li.featureValues.map((fv) => ({
          featureCode: fv.featureCode,
          metricName: fv.metricName.trim() || null,
          enforcementType: fv.enforcementType,
          value: fv.value === "" ? null : fv.value,
          usageTiers: fv.usageTiers.map(tierRequestOf),
        })),
      })),
    })),
  };
}

/** How a plan's price reads in lists: docs/api.md keeps "not priced yet" apart from free. */
export function priceLabel(plan: {
  pricingMode: string;
  monthlyPrice: number | null;
  currency: string | null;
  relativeWeight: number | null;
}): string {
  if (plan.pricingMode === "Relative")
    return plan.relativeWeight === null ? "not weighted yet" : `weight ${plan.relativeWeight}`;
  if (plan.monthlyPrice === null) return "not priced yet";
  return formatMoney(String(plan.monthlyPrice), plan.currency, { per: "month" });
}

/** A plan's price or weight as the pricing table shows it: "EUR 19 /month", "Free", "Not priced yet". */
export function planPriceText(
  plan: Pick<PlanForm, "monthlyPrice" | "currency" | "relativeWeight">,
  pricingMode: string,
): string {
  const unset = (n: number | null) => n === null || Number.isNaN(n);
  if (pricingMode === "Relative")
    return unset(plan.relativeWeight) ? "Not weighted yet" : `Weight ${formatQuantity(plan.relativeWeight!)}`;
  if (unset(plan.monthlyPrice)) return "Not priced yet";
  return formatMoney(plan.monthlyPrice!, plan.currency || null, { per: "month" });
}

/** What the preview needs of a product's feature: its name and units, by code. */
type FeatureFacts = { featureCode: string; name: string; units: string | null };

/**
 * The set's plans as a customer compares them (the portal's plans of a license): the price only
 * in the Absolute mode, the features as `planFeatures` gives them to the portal. Unsaved edits
 * show too (an empty value box is no value); nothing is current, since no license holds a plan.
 */
export function customerPlansOf(
  form: Pick<PlanSetForm, "pricingMode" | "plans">,
  featuresOf: ReadonlyMap<string, readonly FeatureFacts[] | undefined>,
): ComparedPlans {
  const absolute = form.pricingMode === "Absolute";
  const plans = form.plans.map((p, i): ComparedPlan => {
    const price = absolute ? num(p.monthlyPrice) : null;
    return {
      name: p.name.trim() || `Plan ${i + 1}`,
      monthlyPrice: price !== null && Number.isFinite(price) ? price : null,
      currency: absolute && p.currency.trim() ? p.currency.trim().toUpperCase() : null,
      isCurrent: false,
      features: planFeatures(
        p.lineItems.map((li) => ({
          ...li,
          featureValues: li.featureValues.map((fv) => ({ ...fv, value: fv.value === "" ? null : fv.value })),
        })),
        (productId, featureCode) => featuresOf.get(productId)?.find((f) => f.featureCode === featureCode),
      ),
    };
  });
  return { planName: null, plans };
}
