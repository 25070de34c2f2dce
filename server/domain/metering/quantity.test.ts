import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isQuantity, micros, mulMicros, percentOf, toDecimalString, toNumber } from "./quantity.ts";

describe("metering quantities are exact micro-units", () => {
  it("decimal strings and JSON numbers parse exactly, rounding half away from zero past six places", () => {
    expect(micros("12.5")).toBe(12_500_000n);
    expect(micros(0.1)).toBe(100_000n);
    expect(micros("0.0000005")).toBe(1n);
    expect(micros("0.0000004")).toBe(0n);
    expect(micros("-1.0000005")).toBe(-1_000_001n);
    expect(micros("1e3")).toBe(1_000_000_000n);
    expect(micros(1e-7)).toBe(0n);
    expect(micros("000123.000")).toBe(123_000_000n);
    expect(() => micros("abc")).toThrow();
    expect(isQuantity("1.5")).toBe(true);
    expect(isQuantity("")).toBe(false);
    expect(isQuantity(Number.NaN)).toBe(false);
  });

  it("0.1 + 0.2 is 0.3 (no binary floats)", () => {
    expect(toDecimalString(micros(0.1) + micros(0.2))).toBe("0.300000");
    expect(toNumber(micros(0.1) + micros(0.2))).toBe(0.3);
  });

  it("products and percentages round half away from zero at the sixth decimal", () => {
    expect(mulMicros(micros("0.5"), micros("3"))).toBe(micros("1.5"));
    expect(mulMicros(micros("0.000001"), micros("0.5"))).toBe(1n);
    expect(mulMicros(micros("0.000001"), micros("0.4"))).toBe(0n);
    expect(percentOf(micros(200), micros(50))).toBe(micros(100));
    expect(percentOf(micros(3), micros("33.333333"))).toBe(micros("0.999999") + 1n);
  });

  it("every six-decimal string survives a round trip", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (m) => {
        expect(micros(toDecimalString(m))).toBe(m);
      }),
    );
  });
});
