import { describe, expect, it } from "vitest";
import {
  isQuantity,
  maxMicros,
  micros,
  minMicros,
  mulMicros,
  percentOf,
  toDecimalString,
  toNumber,
} from "./quantity.ts";
import {
  asSeverity,
  balanceSeverity,
  blocksDeductions,
  matchingBand,
  severityRank,
} from "./overage/severity.ts";

/**
 * Quantities as micro-units (docs/architecture.md section 13) at their edges, and the overage
 * severities of docs/decisions.md "Usage tiers": every expected value written out.
 */
describe("micros: what a quantity is, at the edges", () => {
  it("a bigint is a whole number of units", () => {
    expect(micros(3n)).toBe(3_000_000n);
    expect(micros(-2n)).toBe(-2_000_000n);
  });

  it("a number that is not finite is refused", () => {
    expect(() => micros(Number.POSITIVE_INFINITY)).toThrow("Not a finite quantity: Infinity");
    expect(() => micros(Number.NaN)).toThrow("Not a finite quantity: NaN");
  });

  it("text is trimmed; a sign, a bare fraction or a bare point are read", () => {
    expect(micros(" 1.5 ")).toBe(1_500_000n);
    expect(micros("+2")).toBe(2_000_000n);
    expect(micros(".5")).toBe(500_000n);
    expect(micros("5.")).toBe(5_000_000n);
    expect(micros("-0.5")).toBe(-500_000n);
    expect(micros("0")).toBe(0n);
    expect(micros("0000")).toBe(0n);
  });

  it("text without a digit before or after the point is not a quantity", () => {
    for (const text of [".", "", "e5", "-", "+.e1", "1.2.3", "1e", "0x10", "1,5"])
      expect(() => micros(text), text).toThrow(`Not a decimal quantity: ${text}`);
    expect(() => micros("  ")).toThrow("Not a decimal quantity: ");
  });

  it("exponents shift the point either way", () => {
    expect(micros("1.5e-3")).toBe(1_500n);
    expect(micros("2.5E2")).toBe(250_000_000n);
    expect(micros("1e+2")).toBe(100_000_000n);
    expect(micros("12e-6")).toBe(12n);
    expect(micros(1e21)).toBe(1_000_000_000_000_000_000_000_000_000n);
    expect(micros(-5e-7)).toBe(-1n);
  });

  it("past six decimals: rounded half away from zero on the first dropped digit", () => {
    expect(micros("0.0000015")).toBe(2n);
    expect(micros("0.0000014999")).toBe(1n);
    expect(micros("0.00000049")).toBe(0n);
    expect(micros("0.00000051")).toBe(1n);
    expect(micros("5e-8")).toBe(0n);
    expect(micros("9.9999995")).toBe(10_000_000n);
    expect(micros("-9.9999994")).toBe(-9_999_999n);
  });

  it("far past six decimals, where the digits are fewer than the places dropped: 0", () => {
    expect(micros("0.0000000987")).toBe(0n);
    expect(micros("0.00000000123")).toBe(0n);
    expect(micros("123e-11")).toBe(0n);
    expect(micros("-987e-10")).toBe(0n);
  });
});

describe("isQuantity: what micros accepts", () => {
  it.each([
    [1.5, true],
    [0, true],
    [Number.POSITIVE_INFINITY, false],
    [Number.NaN, false],
    ["1.5", true],
    [" 1.5 ", true],
    [".5", true],
    ["5.", true],
    ["-1e3", true],
    [".", false],
    ["", false],
    ["   ", false],
    ["e5", false],
    ["abc", false],
    [5n, false],
    [null, false],
    [undefined, false],
    [{}, false],
  ])("%s → %s", (value, accepted) => {
    expect(isQuantity(value)).toBe(accepted);
  });
});

describe("decimal strings, numbers and arithmetic", () => {
  it("six fixed decimals, signed", () => {
    expect(toDecimalString(0n)).toBe("0.000000");
    expect(toDecimalString(-1n)).toBe("-0.000001");
    expect(toDecimalString(12_500_000n)).toBe("12.500000");
    expect(toDecimalString(-12_500_000n)).toBe("-12.500000");
    expect(toDecimalString(1_000_000_000_000_000_000_000_000n)).toBe("1000000000000000000.000000");
    expect(toNumber(-1_500_000n)).toBe(-1.5);
    expect(toNumber(1n)).toBe(0.000001);
  });

  it("products and percentages of negative values round half away from zero too", () => {
    expect(mulMicros(-1n, 500_000n)).toBe(-1n);
    expect(mulMicros(1n, -500_000n)).toBe(-1n);
    expect(mulMicros(-1n, -500_000n)).toBe(1n);
    expect(mulMicros(-1n, 400_000n)).toBe(0n);
    expect(mulMicros(-2_000_000n, 3_000_000n)).toBe(-6_000_000n);
    expect(percentOf(-3_000_000n, 33_333_333n)).toBe(-1_000_000n);
    expect(percentOf(1_000_000n, -50_000_000n)).toBe(-500_000n);
    expect(percentOf(1n, 49_000_000n)).toBe(0n);
    expect(percentOf(1n, 50_000_000n)).toBe(1n);
  });

  it("min and max", () => {
    expect(minMicros(1n, 2n)).toBe(1n);
    expect(minMicros(2n, 1n)).toBe(1n);
    expect(maxMicros(1n, 2n)).toBe(2n);
    expect(maxMicros(2n, 1n)).toBe(2n);
    expect(minMicros(-5n, 0n)).toBe(-5n);
    expect(maxMicros(-5n, 0n)).toBe(0n);
  });
});

describe("overage severities (docs/decisions.md Usage tiers)", () => {
  it("ranked None < Low < Medium < High < Critical; anything else ranks as None", () => {
    expect(["None", "Low", "Medium", "High", "Critical", "critical", ""].map(severityRank)).toEqual([
      0, 1, 2, 3, 4, 0, 0,
    ]);
    expect(asSeverity("High")).toBe("High");
    expect(asSeverity("high")).toBe("None");
    expect(asSeverity(null)).toBe("None");
    expect(asSeverity(undefined)).toBe("None");
  });

  const bands = [
    { endUsage: 100, name: "low", quotaUsageLevel: "Low" },
    { endUsage: 10, name: "critical", quotaUsageLevel: "Critical" },
    { endUsage: 50, name: "high", quotaUsageLevel: "High" },
  ];

  it("a band applies while the remaining balance is below its endUsage; the lowest threshold wins", () => {
    expect(matchingBand(bands, micros(5))?.name).toBe("critical");
    expect(matchingBand(bands, micros("9.999999"))?.name).toBe("critical");
    expect(matchingBand(bands, micros(10))?.name).toBe("high");
    expect(matchingBand(bands, micros(49))?.name).toBe("high");
    expect(matchingBand(bands, micros(50))?.name).toBe("low");
    expect(matchingBand(bands, micros(100))).toBeNull();
    expect(matchingBand([...bands].reverse(), micros(5))?.name).toBe("critical");
    expect(matchingBand([], micros(5))).toBeNull();
    expect(matchingBand(bands, micros(-1))?.name).toBe("critical");
  });

  it("the balance's severity is its band's level, None without one; only Critical blocks deductions", () => {
    expect(balanceSeverity(bands, micros(5))).toBe("Critical");
    expect(balanceSeverity(bands, micros(20))).toBe("High");
    expect(balanceSeverity(bands, micros(200))).toBe("None");
    expect(blocksDeductions(bands, micros(5))).toBe(true);
    expect(blocksDeductions(bands, micros(20))).toBe(false);
    expect(blocksDeductions(bands, micros(200))).toBe(false);
  });
});
