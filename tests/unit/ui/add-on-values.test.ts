import { describe, expect, it } from "vitest";
import { ZAddOnUpdateRequest, type TAddOnResponse } from "@/server/domain/pricing/add-ons/add-on.schemas";
import { addOnPayload, addOnValues, emptyAddOnValue } from "@/components/pricing/add-on-values";

const addOn = {
  code: "EXTRA",
  name: "Extra seats",
  description: "More seats",
  featureValues: [
    {
      featureCode: "SEATS",
      operation: "Add",
      value: "5",
      planTargets: ["Standard", "Pro"],
      usageTiers: [],
    },
  ],
} as unknown as TAddOnResponse;

describe("add-on page values", () => {
  it("reads the add-on's values with plan targets as a comma list", () => {
    const v = addOnValues(addOn);
    expect(v).toMatchObject({ code: "EXTRA", name: "Extra seats", description: "More seats" });
    expect(v.featureValues[0]).toMatchObject({
      featureCode: "SEATS",
      operation: "Add",
      value: "5",
      planTargets: ["Standard", "Pro"],
      usageTiers: [],
    });
  });

  it("sends plan targets as a list, a blank value as none, and tiers only for Tiered", () => {
    const v = addOnValues(addOn);
    v.featureValues.push({ ...emptyAddOnValue("SEATS"), planTargets: ["Basic"] });
    v.featureValues.push({
      ...emptyAddOnValue("CALLS"),
      operation: "Tiered",
      value: "ignored",
      usageTiers: [
        {
          key: "t",
          name: "All",
          startUsage: "",
          endUsage: "",
          startPercentage: "",
          endPercentage: "",
          baseCredits: "",
          creditsPerUnitOfConsumption: "0.5",
          quotaUsageLevel: "None",
          quotaUsagePolicy: "None",
          fundingBalanceMetric: "",
        },
      ],
    });
    const payload = addOnPayload(v, ["3f1a0d8e-9c41-4d7e-8a55-5b1e0c2d7f90"]);
    expect(payload.featureCatalogIds).toEqual(["3f1a0d8e-9c41-4d7e-8a55-5b1e0c2d7f90"]);
    expect(payload.featureValues).toEqual([
      {
        featureCode: "SEATS",
        operation: "Add",
        value: "5",
        planTargets: ["Standard", "Pro"],
        usageTiers: [],
      },
      { featureCode: "SEATS", operation: "Replace", value: null, planTargets: ["Basic"], usageTiers: [] },
      {
        featureCode: "CALLS",
        operation: "Tiered",
        value: null,
        planTargets: [],
        usageTiers: [
          {
            name: "All",
            startUsage: 0,
            endUsage: null,
            startPercentage: 0,
            endPercentage: 0,
            baseCredits: 0,
            creditsPerUnitOfConsumption: 0.5,
            quotaUsageLevel: "None",
            quotaUsagePolicy: "None",
            fundingBalanceMetric: "",
          },
        ],
      },
    ]);
  });

  it("a negative Add value is refused by the API's schema at the row's value", () => {
    const v = addOnValues(addOn);
    v.featureValues[0].value = "-1";
    const parsed = ZAddOnUpdateRequest.safeParse(addOnPayload(v, []));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join("."))).toContain("featureValues.0.value");
  });
});
