import type { TAddOnResponse } from "@/server/domain/pricing/add-ons/add-on.schemas";
import { newKey, tierFormOf, tierRequestOf, type TierForm } from "./plan-set-form";

/** One feature value of an add-on as its row edits it: the plan names it targets, tiers as typed. */
export type AddOnValueForm = {
  key: string;
  featureCode: string;
  operation: string;
  value: string;
  planTargets: string[];
  usageTiers: TierForm[];
};

/** What the add-on page's inputs hold; named as ZAddOnUpdateRequest names them. */
export type AddOnValues = {
  code: string;
  name: string;
  description: string;
  featureValues: AddOnValueForm[];
};

export function addOnValues(addOn: TAddOnResponse): AddOnValues {
  return {
    code: addOn.code,
    name: addOn.name,
    description: addOn.description,
    featureValues: addOn.featureValues.map((v) => ({
      key: newKey(),
      featureCode: v.featureCode,
      operation: v.operation,
      value: v.value ?? "",
      planTargets: [...v.planTargets],
      usageTiers: v.usageTiers.map(tierFormOf),
    })),
  };
}

export const emptyAddOnValue = (featureCode: string): AddOnValueForm => ({
  key: newKey(),
  featureCode,
  operation: "Replace",
  value: "",
  planTargets: [],
  usageTiers: [],
});

/**
 * The update request (ZAddOnUpdateRequest's input) of the page's values: the features granted stay
 * as they are (granting is its own action); a Tiered value carries tiers and no value, the others
 * a value (blank = none) and no tiers.
 */
export function addOnPayload(v: AddOnValues, featureCatalogIds: string[]) {
  return {
    code: v.code,
    name: v.name,
    description: v.description,
    featureCatalogIds,
    featureValues: v.featureValues.map((f) => ({
      featureCode: f.featureCode,
      operation: f.operation,
      value: f.operation === "Tiered" || f.value === "" ? null : f.value,
      planTargets: f.planTargets,
      usageTiers: f.operation === "Tiered" ? f.usageTiers.map(tierRequestOf) : [],
    })),
  };
}
