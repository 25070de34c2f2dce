import { describe, expect, it } from "vitest";
import {
  customerPlansOf,
  emptyPlan,
  planPriceText,
  priceLabel,
  requestOf,
  type PlanSetForm,
} from "@/components/pricing/plan-set-form";

describe("plan set form", () => {
  it("labels a plan's price in the plan sets list with the shared money formatter", () => {
    const plan = { pricingMode: "Absolute", monthlyPrice: 19, currency: "eur", relativeWeight: null };
    expect(priceLabel(plan)).toBe("EUR 19 /month");
    expect(priceLabel({ ...plan, monthlyPrice: 1234.5, currency: "USD" })).toBe("USD 1,234.50 /month");
    expect(priceLabel({ ...plan, monthlyPrice: 0 })).toBe("Free");
    expect(priceLabel({ ...plan, monthlyPrice: null })).toBe("not priced yet");
    expect(priceLabel({ ...plan, pricingMode: "Relative", relativeWeight: 3 })).toBe("weight 3");
  });

  it("reads a plan's price as the pricing table shows it", () => {
    const plan = { monthlyPrice: null, currency: "", relativeWeight: null };
    expect(planPriceText(plan, "Absolute")).toBe("Not priced yet");
    expect(planPriceText({ ...plan, monthlyPrice: 0 }, "Absolute")).toBe("Free");
    expect(planPriceText({ ...plan, monthlyPrice: 19, currency: "eur" }, "Absolute")).toBe("EUR 19 /month");
    expect(planPriceText({ ...plan, monthlyPrice: 1234.5, currency: "USD" }, "Absolute")).toBe(
      "USD 1,234.50 /month",
    );
    expect(planPriceText({ ...plan, monthlyPrice: Number.NaN }, "Absolute")).toBe("Not priced yet");
    expect(planPriceText(plan, "Relative")).toBe("Not weighted yet");
    expect(planPriceText({ ...plan, relativeWeight: 2.5 }, "Relative")).toBe("Weight 2.5");
  });

  it("sends the numbers the kit's fields hold, blank as null, and only the mode's own amount", () => {
    const form: PlanSetForm = {
      name: "Plans",
      description: "",
      pricingMode: "Absolute",
      plans: [
        { ...emptyPlan(), name: "Team", monthlyPrice: 19, currency: " eur ", relativeWeight: 3 },
        { ...emptyPlan(), name: "Later" },
      ],
    };
    const request = requestOf(form) as { plans: Record<string, unknown>[] };
    expect(
      request.plans.map((p) => [p.name, p.sortOrder, p.monthlyPrice, p.currency, p.relativeWeight]),
    ).toEqual([
      ["Team", 0, 19, "eur", null],
      ["Later", 1, null, null, null],
    ]);
    const relative = requestOf({ ...form, pricingMode: "Relative" }) as { plans: Record<string, unknown>[] };
    expect(relative.plans.map((p) => [p.monthlyPrice, p.currency, p.relativeWeight])).toEqual([
      [null, null, 3],
      [null, null, null],
    ]);
  });

  it("shows a customer the plans as the portal does: prices in the Absolute mode, included products' features", () => {
    const value = (featureCode: string, v: string) => ({
      key: featureCode,
      featureCode,
      metricName: "",
      enforcementType: "Absolute",
      value: v,
      usageTiers: [],
    });
    const plans = [
      {
        ...emptyPlan(),
        name: " Starter ",
        monthlyPrice: 0,
        lineItems: [{ key: "a", productId: "p1", included: true, featureValues: [value("SEATS", "1")] }],
      },
      {
        ...emptyPlan(),
        name: "",
        monthlyPrice: 19,
        currency: " eur ",
        relativeWeight: 2,
        lineItems: [
          { key: "b", productId: "p1", included: true, featureValues: [value("CALLS", "")] },
          { key: "c", productId: "p2", included: false, featureValues: [value("SEATS", "9")] },
        ],
      },
    ];
    const featuresOf = new Map([["p1", [{ featureCode: "SEATS", name: "Seats", units: "seats" }]]]);
    expect(customerPlansOf({ pricingMode: "Absolute", plans }, featuresOf)).toEqual({
      planName: null,
      plans: [
        {
          name: "Starter",
          monthlyPrice: 0,
          currency: null,
          isCurrent: false,
          features: [
            {
              featureCode: "SEATS",
              featureName: "Seats",
              units: "seats",
              value: "1",
              enforcementType: "Absolute",
            },
          ],
        },
        {
          name: "Plan 2",
          monthlyPrice: 19,
          currency: "EUR",
          isCurrent: false,
          features: [
            {
              featureCode: "CALLS",
              featureName: null,
              units: null,
              value: null,
              enforcementType: "Absolute",
            },
          ],
        },
      ],
    });
    const relative = customerPlansOf({ pricingMode: "Relative", plans }, featuresOf);
    expect(relative.plans.map((p) => [p.name, p.monthlyPrice, p.currency])).toEqual([
      ["Starter", null, null],
      ["Plan 2", null, null],
    ]);
    const typo = customerPlansOf(
      { pricingMode: "Absolute", plans: [{ ...plans[0], monthlyPrice: NaN }] },
      featuresOf,
    );
    expect(typo.plans[0].monthlyPrice).toBeNull();
  });
});
