import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildLadder, remainingOf, rungAt, stepUsage } from "./ladder.ts";
import type { TUsageTier } from "../../catalog/monitored-assets/usage-tier.schemas.ts";
import { micros } from "../quantity.ts";

const tier = (t: Partial<TUsageTier> & { name: string; startUsage: number }): TUsageTier => ({
  startPercentage: 0,
  endUsage: null,
  endPercentage: 0,
  baseCredits: 0,
  creditsPerUnitOfConsumption: 0,
  quotaUsageLevel: "None",
  quotaUsagePolicy: "None",
  fundingBalanceMetric: "",
  ...t,
});

const funded = [
  tier({ name: "Included", startUsage: 0, endUsage: 100 }),
  tier({
    name: "Overage",
    startUsage: 100,
    endUsage: 200,
    baseCredits: 5,
    creditsPerUnitOfConsumption: 0.5,
    quotaUsageLevel: "Medium",
    quotaUsagePolicy: "AllowWithOverage",
    fundingBalanceMetric: "credits",
  }),
  tier({ name: "Stop", startUsage: 200, quotaUsageLevel: "Critical", quotaUsagePolicy: "Block" }),
];

describe("metering tier ladder", () => {
  it("without tiers the feature value is a hard limit; without either nothing limits", () => {
    const limited = buildLadder({ value: "10", tiers: [], enforcementType: null });
    expect(limited).toMatchObject({ refuseFrom: micros(10), limit: micros(10) });
    expect(stepUsage(limited, micros(9), micros(11), "Sliced", 0n).pastLimit).toBe("LadderEnd");
    const open = buildLadder({ value: null, tiers: [], enforcementType: null });
    expect(open).toMatchObject({ refuseFrom: null, limit: null, rungs: [] });
    expect(remainingOf(open, micros(1e9))).toBeNull();
  });

  it("a tier holds the units past its start: usage exactly at a boundary is still in the lower tier", () => {
    const ladder = buildLadder({ value: null, tiers: funded, enforcementType: null });
    expect(rungAt(ladder, 0n)).toBeNull();
    expect(rungAt(ladder, micros(100))?.name).toBe("Included");
    expect(rungAt(ladder, micros("100.000001"))?.name).toBe("Overage");
    expect(ladder.limit).toBe(micros(100));
    expect(ladder.refuseFrom).toBe(micros(200));
  });

  it("Sliced: units past an AllowWithOverage start are priced at its rate, plus baseCredits once when the start is crossed", () => {
    const ladder = buildLadder({ value: null, tiers: funded, enforcementType: null });
    const step = stepUsage(ladder, micros(90), micros(110), "Sliced", 0n);
    expect(step.overageUnits).toBe(micros(10));
    expect(step.charges.get("credits")).toBe(micros(10));
    expect(stepUsage(ladder, micros(110), micros(120), "Sliced", micros(10)).charges.get("credits")).toBe(
      micros(5),
    );
    expect(stepUsage(ladder, micros(150), micros(201), "Sliced", 0n).pastLimit).toMatchObject({
      name: "Stop",
    });
  });

  it("Sliced pricing is additive: pricing a → b then b → c equals pricing a → c (a step never double-charges)", () => {
    const ladder = buildLadder({ value: null, tiers: funded, enforcementType: null });
    const credits = (a: bigint, b: bigint) => stepUsage(ladder, a, b, "Sliced", 0n).creditsPriced;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200_000 }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.integer({ min: 0, max: 200_000 }),
        (x, y, z) => {
          const [a, b, c] = [x, y, z].sort((p, q) => p - q).map((v) => BigInt(v) * 1000n);
          expect(credits(a, b) + credits(b, c)).toBe(credits(a, c));
        },
      ),
    );
  });

  it("percentage tiers are read against the feature value (enforcementType Percentage)", () => {
    const ladder = buildLadder({
      value: "200",
      enforcementType: "Percentage",
      tiers: [
        tier({ name: "Included", startUsage: 0, startPercentage: 0, endPercentage: 50 }),
        tier({
          name: "Heavy",
          startUsage: 0,
          startPercentage: 50,
          endPercentage: 100,
          quotaUsagePolicy: "Notify",
        }),
        tier({ name: "Over", startUsage: 0, startPercentage: 100, quotaUsagePolicy: "Block" }),
      ],
    });
    expect(ladder.percentageBased).toBe(true);
    expect(ladder.rungs.map((r) => [r.start, r.end])).toEqual([
      [0n, micros(100)],
      [micros(100), micros(200)],
      [micros(200), null],
    ]);
    expect(ladder.limit).toBe(micros(100));
  });

  it("Whole: all overage units at the rate of the tier reached, never refunding what was priced", () => {
    const ladder = buildLadder({
      value: null,
      enforcementType: null,
      tiers: [
        tier({ name: "Free", startUsage: 0, endUsage: 10 }),
        tier({
          name: "A",
          startUsage: 10,
          endUsage: 20,
          creditsPerUnitOfConsumption: 2,
          quotaUsagePolicy: "AllowWithOverage",
        }),
        tier({
          name: "B",
          startUsage: 20,
          creditsPerUnitOfConsumption: 1,
          quotaUsagePolicy: "AllowWithOverage",
        }),
      ],
    });
    expect(stepUsage(ladder, 0n, micros(15), "Whole", 0n).unfundedOverageCredits).toBe(micros(10));
    expect(stepUsage(ladder, micros(15), micros(21), "Whole", micros(10)).creditsPriced).toBe(micros(1));
    expect(stepUsage(ladder, micros(19), micros(21), "Whole", micros(18)).creditsPriced).toBe(0n);
  });
});
