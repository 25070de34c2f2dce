import { describe, expect, it } from "vitest";
import { validateFeatureValue } from "./feature-value.ts";
import {
  ZUsageTier,
  validateUsageTiers,
  type TUsageTierInput,
} from "../monitored-assets/usage-tier.schemas.ts";
import { cronScheduleProblem } from "../monitored-assets/cron-schedule.ts";
import { isIsoDuration } from "../iso-duration.ts";
import { metricNameProblem } from "../monitored-assets/metric-name.ts";

const entry = (
  featureType: string,
  extra: Partial<{ enumOptions: { value: string }[] | null; metricName: string | null }> = {},
) => ({
  featureType,
  enumOptions: null,
  ...extra,
});

describe("validateFeatureValue: the featureType decides how a value string is read", () => {
  it("Boolean takes exactly true or false", () => {
    expect(validateFeatureValue(entry("Boolean"), "true")).toBeNull();
    expect(validateFeatureValue(entry("Boolean"), "false")).toBeNull();
    for (const v of ["True", "1", "yes", ""])
      expect(validateFeatureValue(entry("Boolean"), v)).toMatch(/true/);
  });

  it("Numeric takes a finite decimal number", () => {
    for (const v of ["0", "-1.5", "1e6", " 42 "])
      expect(validateFeatureValue(entry("Numeric"), v)).toBeNull();
    for (const v of ["", "abc", "Infinity", "NaN", "0x1f", "1,5"])
      expect(validateFeatureValue(entry("Numeric"), v)).not.toBeNull();
  });

  it("Text takes anything; JsonField must parse", () => {
    expect(validateFeatureValue(entry("Text"), "")).toBeNull();
    expect(validateFeatureValue(entry("JsonField"), '{"a":[1,2]}')).toBeNull();
    expect(validateFeatureValue(entry("JsonField"), "{a}")).toMatch(/JSON/);
  });

  it("Enumeration takes one of its options (case-sensitive)", () => {
    const e = entry("Enumeration", { enumOptions: [{ value: "basic" }, { value: "pro" }] });
    expect(validateFeatureValue(e, "pro")).toBeNull();
    expect(validateFeatureValue(e, "Pro")).toMatch(/basic, pro/);
  });

  it("Metered takes a quota >= 0 and needs the entry's metricName", () => {
    const e = entry("Metered", { metricName: "api_calls" });
    expect(validateFeatureValue(e, "1000")).toBeNull();
    expect(validateFeatureValue(e, "-1")).not.toBeNull();
    expect(validateFeatureValue(entry("Metered"), "10")).toMatch(/metricName/);
    expect(validateFeatureValue(entry("Metered"), null)).toMatch(/metricName/);
  });

  it("null means no value; an unknown featureType is refused", () => {
    expect(validateFeatureValue(entry("Numeric"), null)).toBeNull();
    expect(validateFeatureValue(entry("Currency"), "1")).toMatch(/Unknown featureType/);
  });
});

describe("validateUsageTiers", () => {
  const tiers = (...input: TUsageTierInput[]) => input.map((t) => ZUsageTier.parse(t));
  const paths = (list: ReturnType<typeof tiers>, balances: string[] = []) =>
    validateUsageTiers(list, { balanceMetricNames: balances }).map((i) => i.path);

  it("accepts a contiguous ladder ending open; an empty ladder is fine", () => {
    expect(
      paths(tiers({ name: "a", startUsage: 0, endUsage: 10 }, { name: "b", startUsage: 10, endUsage: null })),
    ).toEqual([]);
    expect(paths([])).toEqual([]);
  });

  it("refuses gaps, overlaps, an open tier before the last, and tiers after Block", () => {
    expect(paths(tiers({ name: "a", startUsage: 0, endUsage: 10 }, { name: "b", startUsage: 11 }))).toEqual([
      "usageTiers.1.startUsage",
    ]);
    expect(paths(tiers({ name: "a", startUsage: 5, endUsage: 10 }, { name: "b", startUsage: 0 }))).toEqual([
      "usageTiers.1.startUsage",
    ]);
    expect(paths(tiers({ name: "a", startUsage: 0 }, { name: "b", startUsage: 10 }))).toEqual([
      "usageTiers.0.endUsage",
    ]);
    expect(
      paths(
        tiers(
          { name: "a", startUsage: 0, endUsage: 10, quotaUsagePolicy: "Block" },
          { name: "b", startUsage: 10 },
        ),
      ),
    ).toEqual(["usageTiers.1.quotaUsagePolicy"]);
  });

  it("fundingBalanceMetric only with AllowWithOverage and naming a balance metric", () => {
    expect(
      paths(
        tiers({
          name: "a",
          startUsage: 0,
          quotaUsagePolicy: "AllowWithOverage",
          fundingBalanceMetric: "credits",
        }),
        ["credits"],
      ),
    ).toEqual([]);
    expect(
      paths(
        tiers({ name: "a", startUsage: 0, quotaUsagePolicy: "Notify", fundingBalanceMetric: "credits" }),
        ["credits"],
      ),
    ).toEqual(["usageTiers.0.fundingBalanceMetric"]);
    expect(
      paths(
        tiers({
          name: "a",
          startUsage: 0,
          quotaUsagePolicy: "AllowWithOverage",
          fundingBalanceMetric: "other",
        }),
        ["credits"],
      ),
    ).toEqual(["usageTiers.0.fundingBalanceMetric"]);
    expect(
      ZUsageTier.parse({ name: "a", startUsage: 0, fundingBalanceMetric: null }).fundingBalanceMetric,
    ).toBe("");
  });
});

describe("schedules, durations and metric names", () => {
  it("cron: five fields of numbers and * , - /", () => {
    expect(cronScheduleProblem("*/5 0-6 1,15 * 1-5")).toBeNull();
    for (const s of ["* * * * * *", "@hourly", "0 0 L * *", "0 0 * * MON", "61 * * * *"])
      expect(cronScheduleProblem(s)).not.toBeNull();
  });

  it("ISO 8601 durations", () => {
    for (const d of ["P1D", "PT0S", "P1Y2M10DT2H30M", "P3W", "PT0.5S"]) expect(isIsoDuration(d)).toBe(true);
    for (const d of ["P", "PT", "P1DT", "1D", "PT1.5H", "p1d"]) expect(isIsoDuration(d)).toBe(false);
  });

  it("metric names are lowercase", () => {
    expect(metricNameProblem("api_calls")).toBeNull();
    expect(metricNameProblem("API_CALLS")).toMatch(/lowercase/);
  });
});
