import { describe, expect, it } from "vitest";
import type { TUsageTier } from "../../catalog/monitored-assets/usage-tier.schemas.ts";
import { buildLadder, freeRegions, remainingOf, rungAt, severityAt, stepUsage } from "./ladder.ts";

/**
 * The tier ladder of docs/decisions.md "Metering", each ladder and step compared whole, in
 * micro-units written out (1 unit = 1_000_000n).
 */
const U = 1_000_000n;
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
const rung = (r: {
  name: string;
  start: bigint;
  end: bigint | null;
  severity?: string;
  policy?: string;
  baseCredits?: bigint;
  creditsPerUnit?: bigint;
  fundingBalanceMetric?: string;
}) => ({
  severity: "None",
  policy: "None",
  baseCredits: 0n,
  creditsPerUnit: 0n,
  fundingBalanceMetric: "",
  ...r,
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
const FUNDED = buildLadder({ value: null, tiers: funded, enforcementType: null });

describe("buildLadder", () => {
  it("no tiers: the value is the limit of one implicit Included tier", () => {
    expect(buildLadder({ value: "10", tiers: [], enforcementType: null })).toEqual({
      rungs: [rung({ name: "Included", start: 0n, end: 10n * U })],
      value: 10n * U,
      refuseFrom: 10n * U,
      limit: 10n * U,
      percentageBased: false,
    });
  });

  it("a negative value counts as 0; a value that is not a quantity as none", () => {
    expect(buildLadder({ value: "-5", tiers: [], enforcementType: null })).toEqual({
      rungs: [rung({ name: "Included", start: 0n, end: 0n })],
      value: 0n,
      refuseFrom: 0n,
      limit: 0n,
      percentageBased: false,
    });
    expect(buildLadder({ value: "unlimited", tiers: [], enforcementType: null })).toEqual({
      rungs: [],
      value: null,
      refuseFrom: null,
      limit: null,
      percentageBased: false,
    });
  });

  it("tiers in usage units: each tier's terms; only an AllowWithOverage tier keeps its funding balance", () => {
    expect(FUNDED).toEqual({
      rungs: [
        rung({ name: "Included", start: 0n, end: 100n * U }),
        rung({
          name: "Overage",
          start: 100n * U,
          end: 200n * U,
          severity: "Medium",
          policy: "AllowWithOverage",
          baseCredits: 5n * U,
          creditsPerUnit: 500_000n,
          fundingBalanceMetric: "credits",
        }),
        rung({ name: "Stop", start: 200n * U, end: null, severity: "Critical", policy: "Block" }),
      ],
      value: null,
      refuseFrom: 200n * U,
      limit: 100n * U,
      percentageBased: false,
    });
    const notify = buildLadder({
      value: null,
      enforcementType: null,
      tiers: [
        tier({ name: "Watch", startUsage: 0, quotaUsagePolicy: "Notify", fundingBalanceMetric: "credits" }),
      ],
    });
    expect(notify.rungs[0].fundingBalanceMetric).toBe("");
  });

  it("where usage is refused and where the allowance ends", () => {
    const ladder = (...tiers: TUsageTier[]) => {
      const { refuseFrom, limit } = buildLadder({ value: null, tiers, enforcementType: null });
      return { refuseFrom, limit };
    };
    // A closed last tier: refused past its end; no tier beyond None: the allowance is that end.
    expect(ladder(tier({ name: "A", startUsage: 0, endUsage: 100 }))).toEqual({
      refuseFrom: 100n * U,
      limit: 100n * U,
    });
    // An open last tier and nothing but None: nothing limits.
    expect(ladder(tier({ name: "A", startUsage: 0 }))).toEqual({ refuseFrom: null, limit: null });
    // A Notify tier is a threshold though nothing is refused.
    expect(
      ladder(
        tier({ name: "A", startUsage: 0, endUsage: 100 }),
        tier({ name: "B", startUsage: 100, quotaUsagePolicy: "Notify" }),
      ),
    ).toEqual({ refuseFrom: null, limit: 100n * U });
    // A Block tier's start refuses, before a later threshold.
    expect(
      ladder(
        tier({ name: "A", startUsage: 0, endUsage: 60 }),
        tier({ name: "B", startUsage: 100, endUsage: 200, quotaUsagePolicy: "Notify" }),
        tier({ name: "C", startUsage: 60, quotaUsagePolicy: "Block" }),
      ),
    ).toEqual({ refuseFrom: 60n * U, limit: 60n * U });
  });

  const byPercent = [
    tier({ name: "Low", startUsage: 0, endUsage: 7, startPercentage: 0, endPercentage: 80 }),
    tier({ name: "High", startUsage: 7, startPercentage: 80, endPercentage: 0, quotaUsagePolicy: "Block" }),
  ];

  it("tiers that use percentages, no enforcementType: percentages of a positive value", () => {
    expect(buildLadder({ value: "50", tiers: byPercent, enforcementType: null })).toEqual({
      rungs: [
        rung({ name: "Low", start: 0n, end: 40n * U }),
        rung({ name: "High", start: 40n * U, end: null, policy: "Block" }),
      ],
      value: 50n * U,
      refuseFrom: 40n * U,
      limit: 40n * U,
      percentageBased: true,
    });
  });

  it("a value of 0, no value, or enforcementType other than Percentage: the usage figures", () => {
    for (const [value, enforcementType] of [
      ["0", null],
      [null, "Percentage"],
      ["50", "Usage"],
    ] as const) {
      const ladder = buildLadder({ value, tiers: byPercent, enforcementType });
      expect(ladder.percentageBased).toBe(false);
      expect(ladder.rungs.map((r) => [r.start, r.end])).toEqual([
        [0n, 7n * U],
        [7n * U, null],
      ]);
    }
  });

  it("enforcementType Percentage with tiers at 0 %: a closed tier before the last ends at 0", () => {
    const ladder = buildLadder({
      value: "10",
      enforcementType: "Percentage",
      tiers: [tier({ name: "A", startUsage: 3, endUsage: 5 }), tier({ name: "B", startUsage: 5 })],
    });
    expect(ladder.percentageBased).toBe(true);
    expect(ladder.rungs.map((r) => [r.start, r.end])).toEqual([
      [0n, 0n],
      [0n, null],
    ]);
  });
});

describe("reading the ladder", () => {
  it("the severity at a usage: its tier's, None in no tier", () => {
    expect(severityAt(FUNDED, 0n)).toBe("None");
    expect(severityAt(FUNDED, 150n * U)).toBe("Medium");
    expect(severityAt(FUNDED, 500n * U)).toBe("Critical");
    expect(rungAt(FUNDED, 200n * U)?.name).toBe("Overage");
    expect(rungAt(FUNDED, 200n * U + 1n)?.name).toBe("Stop");
  });

  it("what remains of the allowance, never below 0", () => {
    expect(remainingOf(FUNDED, 30n * U)).toBe(70n * U);
    expect(remainingOf(FUNDED, 100n * U)).toBe(0n);
    expect(remainingOf(FUNDED, 150n * U)).toBe(0n);
  });

  it("free regions: below the first tier, and inside None and Notify tiers", () => {
    expect(freeRegions(buildLadder({ value: null, tiers: [], enforcementType: null }))).toEqual([
      { lo: 0n, hi: null, severity: "None", tierName: null },
    ]);
    expect(freeRegions(FUNDED)).toEqual([{ lo: 0n, hi: 100n * U, severity: "None", tierName: "Included" }]);
    expect(
      freeRegions(
        buildLadder({
          value: null,
          enforcementType: null,
          tiers: [
            tier({
              name: "Watch",
              startUsage: 10,
              endUsage: 20,
              quotaUsagePolicy: "Notify",
              quotaUsageLevel: "Low",
            }),
            tier({ name: "Stop", startUsage: 20, quotaUsagePolicy: "Block" }),
          ],
        }),
      ),
    ).toEqual([
      { lo: 0n, hi: 10n * U, severity: "None", tierName: null },
      { lo: 10n * U, hi: 20n * U, severity: "Low", tierName: "Watch" },
    ]);
  });
});

describe("stepUsage", () => {
  const nothing = (before: bigint, after: bigint) => ({
    before,
    after,
    pastLimit: null,
    overageUnits: 0n,
    charges: new Map(),
    unfundedOverageCredits: 0n,
    creditsPriced: 0n,
  });

  it("a step that does not raise usage prices nothing", () => {
    expect(stepUsage(FUNDED, 150n * U, 120n * U, "Sliced", 0n)).toEqual(nothing(150n * U, 120n * U));
    expect(stepUsage(FUNDED, 150n * U, 150n * U, "Whole", 0n)).toEqual(nothing(150n * U, 150n * U));
  });

  it("within the included tier: nothing past the limit, nothing priced", () => {
    expect(stepUsage(FUNDED, 10n * U, 20n * U, "Sliced", 0n)).toEqual(nothing(10n * U, 20n * U));
  });

  it("Sliced: entering a tier from its very start charges its baseCredits", () => {
    expect(stepUsage(FUNDED, 100n * U, 110n * U, "Sliced", 0n)).toEqual({
      ...nothing(100n * U, 110n * U),
      overageUnits: 10n * U,
      charges: new Map([["credits", 10n * U]]),
      creditsPriced: 10n * U,
    });
    expect(stepUsage(FUNDED, 100n * U + 2n, 110n * U, "Sliced", 0n)).toEqual({
      ...nothing(100n * U + 2n, 110n * U),
      overageUnits: 10n * U - 2n,
      charges: new Map([["credits", 5n * U - 1n]]),
      creditsPriced: 5n * U - 1n,
    });
  });

  it("up to the refusal point is allowed; one micro-unit past it names the Block tier", () => {
    expect(stepUsage(FUNDED, 150n * U, 200n * U, "Sliced", 0n).pastLimit).toBeNull();
    expect(stepUsage(FUNDED, 150n * U, 200n * U + 1n, "Sliced", 0n)).toEqual({
      ...nothing(150n * U, 200n * U + 1n),
      pastLimit: FUNDED.rungs[2],
      overageUnits: 50n * U,
      charges: new Map([["credits", 25n * U]]),
      creditsPriced: 25n * U,
    });
  });

  it("past the end of a closed last tier: LadderEnd", () => {
    const closed = buildLadder({
      value: null,
      enforcementType: null,
      tiers: [tier({ name: "A", startUsage: 0, endUsage: 10 })],
    });
    expect(stepUsage(closed, 0n, 11n * U, "Sliced", 0n).pastLimit).toBe("LadderEnd");
    expect(stepUsage(closed, 0n, 10n * U, "Sliced", 0n).pastLimit).toBeNull();
  });

  const twoTiers = buildLadder({
    value: null,
    enforcementType: null,
    tiers: [
      tier({ name: "Free", startUsage: 0, endUsage: 10 }),
      tier({
        name: "A",
        startUsage: 10,
        endUsage: 20,
        baseCredits: 1,
        creditsPerUnitOfConsumption: 2,
        quotaUsagePolicy: "AllowWithOverage",
        fundingBalanceMetric: "credits",
      }),
      tier({
        name: "B",
        startUsage: 20,
        endUsage: 30,
        baseCredits: 3,
        creditsPerUnitOfConsumption: 1,
        quotaUsagePolicy: "AllowWithOverage",
        fundingBalanceMetric: "credits",
      }),
      tier({
        name: "C",
        startUsage: 30,
        creditsPerUnitOfConsumption: 4,
        quotaUsagePolicy: "AllowWithOverage",
      }),
    ],
  });

  it("Sliced across tiers: each unit at its tier's rate, each start crossed adds that tier's baseCredits; one balance sums", () => {
    expect(stepUsage(twoTiers, 5n * U, 32n * U, "Sliced", 0n)).toEqual({
      ...nothing(5n * U, 32n * U),
      overageUnits: 22n * U,
      // A: 10 × 2 + 1; B: 10 × 1 + 3 → 34 from "credits"; C: 2 × 4, unfunded.
      charges: new Map([["credits", 34n * U]]),
      unfundedOverageCredits: 8n * U,
      creditsPriced: 42n * U,
    });
  });

  it("Whole: every unit past the first overage start at the reached tier's rate, less what the period priced", () => {
    expect(stepUsage(twoTiers, 5n * U, 25n * U, "Whole", 0n)).toEqual({
      ...nothing(5n * U, 25n * U),
      overageUnits: 15n * U,
      // B reached: 3 + 15 × 1.
      charges: new Map([["credits", 18n * U]]),
      creditsPriced: 18n * U,
    });
    expect(stepUsage(twoTiers, 25n * U, 26n * U, "Whole", 18n * U)).toEqual({
      ...nothing(25n * U, 26n * U),
      overageUnits: 1n * U,
      charges: new Map([["credits", 1n * U]]),
      creditsPriced: 1n * U,
    });
    expect(stepUsage(twoTiers, 25n * U, 26n * U, "Whole", 30n * U).creditsPriced).toBe(0n);
    expect(stepUsage(twoTiers, 25n * U, 26n * U, "Whole", 30n * U).charges).toEqual(new Map());
  });

  it("Whole: a step that ends outside an overage tier prices nothing", () => {
    expect(stepUsage(twoTiers, 1n * U, 5n * U, "Whole", 0n)).toEqual(nothing(1n * U, 5n * U));
    const blocked = buildLadder({
      value: null,
      enforcementType: null,
      tiers: [
        tier({
          name: "A",
          startUsage: 0,
          endUsage: 10,
          creditsPerUnitOfConsumption: 1,
          quotaUsagePolicy: "AllowWithOverage",
        }),
        tier({ name: "Stop", startUsage: 10, quotaUsagePolicy: "Block" }),
      ],
    });
    expect(stepUsage(blocked, 5n * U, 12n * U, "Whole", 0n)).toEqual({
      ...nothing(5n * U, 12n * U),
      pastLimit: blocked.rungs[1],
      overageUnits: 5n * U,
    });
  });

  it("an overage tier without a price charges nothing", () => {
    const free = buildLadder({
      value: null,
      enforcementType: null,
      tiers: [
        tier({
          name: "A",
          startUsage: 0,
          quotaUsagePolicy: "AllowWithOverage",
          fundingBalanceMetric: "credits",
        }),
      ],
    });
    expect(stepUsage(free, 0n, 5n * U, "Sliced", 0n)).toEqual({
      ...nothing(0n, 5n * U),
      overageUnits: 5n * U,
    });
  });
});
