import type { TPlanSetResponse } from "@/server/domain/pricing/plan-sets/plan-set.schemas";
import { tierRow } from "../catalog/monitored-assets/tier-table-editor";

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
  monthlyPrice: string;
  currency: string;
  relativeWeight: string;
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
const text = (n: number | null | undefined) => (n === null || n === undefined ? "" : String(n));

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
  monthlyPrice: "",
  currency: "",
  relativeWeight: "",
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
      monthlyPrice: text(p.monthlyPrice),
      currency: p.currency ?? "",
      relativeWeight: text(p.relativeWeight),
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
const num = (value: string): number | null => (value.trim() === "" ? null : Number(value.trim()));

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
  if (plan.monthlyPrice === 0) return "free";
  return `${plan.monthlyPrice} ${plan.currency ?? ""}/month`.trim();
}
