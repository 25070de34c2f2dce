import { describe, expect, it } from "vitest";
import { emptyPlan, planPriceText, requestOf, type PlanSetForm } from "@/components/pricing/plan-set-form";

describe("plan set form", () => {
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
});
