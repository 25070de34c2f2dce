import { describe, expect, it } from "vitest";
import { ZPlanSetCreateRequest, ZPlanSetUpdateRequest, isIsoCurrency } from "./plan-set.schemas.ts";
import { ZAddOnCreateRequest } from "../add-ons/add-on.schemas.ts";
import { byAskingOrder, isCampaignRunning } from "../../catalog/rating-campaigns/rating-campaign-response.ts";

const suiteId = "00000000-0000-4000-8000-000000000001";
const plan = (fields: Record<string, unknown>) => ({ name: "P", pricingMode: "Absolute", ...fields });
const issuesOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  (result.error?.issues ?? []).map((i) => i.path.join("."));

describe("plan rules in the request schema (shared by REST, tRPC and forms)", () => {
  it("one pricingMode per set; Absolute refuses relativeWeight; Relative refuses monthlyPrice and currency", () => {
    expect(
      issuesOf(
        ZPlanSetUpdateRequest.safeParse({
          name: "x",
          plans: [plan({}), plan({ name: "Q", pricingMode: "Relative" })],
        }),
      ),
    ).toEqual(["plans.1.pricingMode"]);
    expect(
      issuesOf(ZPlanSetUpdateRequest.safeParse({ name: "x", plans: [plan({ relativeWeight: 0 })] })),
    ).toEqual(["plans.0.relativeWeight"]);
    expect(
      issuesOf(
        ZPlanSetUpdateRequest.safeParse({
          name: "x",
          plans: [plan({ pricingMode: "Relative", monthlyPrice: 0, currency: "EUR" })],
        }),
      ),
    ).toEqual(["plans.0.monthlyPrice", "plans.0.currency"]);
  });

  it("monthlyPrice and relativeWeight keep null apart from 0", () => {
    const parsed = ZPlanSetUpdateRequest.parse({
      name: "x",
      plans: [plan({}), plan({ name: "Free", monthlyPrice: 0 })],
    });
    expect(parsed.plans!.map((p) => p.monthlyPrice)).toEqual([null, 0]);
    const relative = ZPlanSetUpdateRequest.parse({
      name: "x",
      plans: [
        plan({ pricingMode: "Relative" }),
        plan({ name: "Z", pricingMode: "Relative", relativeWeight: 0 }),
      ],
    });
    expect(relative.plans!.map((p) => p.relativeWeight)).toEqual([null, 0]);
  });

  it("currency: ISO 4217, upper-cased, required when the price is above 0", () => {
    expect(isIsoCurrency("EUR")).toBe(true);
    expect(isIsoCurrency("XYZ")).toBe(false);
    expect(
      issuesOf(ZPlanSetUpdateRequest.safeParse({ name: "x", plans: [plan({ monthlyPrice: 5 })] })),
    ).toEqual(["plans.0.currency"]);
    expect(
      ZPlanSetUpdateRequest.parse({ name: "x", plans: [plan({ monthlyPrice: 5, currency: "usd" })] })
        .plans![0].currency,
    ).toBe("USD");
  });

  it("a plan set names either its suite or the one product it prices", () => {
    expect(ZPlanSetCreateRequest.safeParse({ name: "x" }).success).toBe(false);
    expect(ZPlanSetCreateRequest.safeParse({ name: "x", suiteId, productId: suiteId }).success).toBe(false);
    expect(ZPlanSetCreateRequest.safeParse({ name: "x", productId: suiteId }).success).toBe(true);
  });
});

describe("add-on values", () => {
  it("Tiered needs tiers and no value; Replace and Add need a value; Add is a positive number; overlapping targets are refused", () => {
    const tier = { name: "T", startUsage: 0 };
    const parse = (featureValues: unknown[]) =>
      issuesOf(ZAddOnCreateRequest.safeParse({ suiteId, code: "C", name: "N", featureValues }));
    expect(parse([{ featureCode: "A", operation: "Tiered" }])).toEqual(["featureValues.0.usageTiers"]);
    expect(parse([{ featureCode: "A", operation: "Tiered", value: "1", usageTiers: [tier] }])).toEqual([
      "featureValues.0.value",
    ]);
    expect(parse([{ featureCode: "A", operation: "Replace" }])).toEqual(["featureValues.0.value"]);
    expect(parse([{ featureCode: "A", operation: "Add", value: "0" }])).toEqual(["featureValues.0.value"]);
    expect(
      parse([
        { featureCode: "A", value: "1" },
        { featureCode: "a", value: "2", planTargets: ["Team"] },
      ]),
    ).toEqual(["featureValues.1.planTargets"]);
    expect(
      parse([
        { featureCode: "A", value: "1", planTargets: ["Pro"] },
        { featureCode: "a", value: "2", planTargets: ["Team"] },
      ]),
    ).toEqual([]);
  });
});

describe("rating campaigns", () => {
  const at = new Date("2027-03-01T12:00:00Z");
  it("isRunning: enabled and inside [startsAt, endsAt), null bounds open", () => {
    expect(isCampaignRunning({ isEnabled: true, startsAt: null, endsAt: null }, at)).toBe(true);
    expect(isCampaignRunning({ isEnabled: false, startsAt: null, endsAt: null }, at)).toBe(false);
    expect(isCampaignRunning({ isEnabled: true, startsAt: at, endsAt: null }, at)).toBe(true);
    expect(isCampaignRunning({ isEnabled: true, startsAt: null, endsAt: at }, at)).toBe(false);
    expect(
      isCampaignRunning({ isEnabled: true, startsAt: new Date("2027-03-02T00:00:00Z"), endsAt: null }, at),
    ).toBe(false);
  });

  it("targets are asked by priority, lower first, null last, then as listed", () => {
    const targets = [
      { id: "a", priority: null, position: 0 },
      { id: "b", priority: 5, position: 1 },
      { id: "c", priority: 1, position: 2 },
      { id: "d", priority: null, position: 3 },
      { id: "e", priority: 1, position: 4 },
    ];
    expect([...targets].sort(byAskingOrder).map((t) => t.id)).toEqual(["c", "e", "b", "a", "d"]);
  });
});
