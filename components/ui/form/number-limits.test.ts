import { describe, expect, it } from "vitest";
import { numberLimitText } from "./number-limits";

describe("numberLimitText", () => {
  it("says a range with its noun after the numbers", () => {
    expect(numberLimitText({ min: 1, max: 1_000_000 }, { unit: "seats" })).toBe(
      "Between 1 and 1,000,000 seats.",
    );
    expect(numberLimitText({ min: 1 }, { unit: "codes" })).toBe("1 or more codes.");
    expect(numberLimitText({ min: 0, minExclusive: true }, { unit: "GB" })).toBe("More than 0 GB.");
    expect(numberLimitText({ max: 500 }, { unit: "devices" })).toBe("At most 500 devices.");
    expect(numberLimitText({ max: 100, maxExclusive: true })).toBe("Less than 100.");
  });

  it("puts a billing interval after the amount, in words", () => {
    expect(numberLimitText({ min: 0 }, { per: "month" })).toBe("0 or more per month.");
    expect(numberLimitText({ min: 0, max: 1e18, maxExclusive: true }, { per: "month" })).toBe(
      "0 or more per month.",
    );
    expect(numberLimitText({ min: 10, max: 20 }, { unit: "credits", per: "day" })).toBe(
      "Between 10 and 20 credits per day.",
    );
  });

  it("writes money bounds with the currency code and cents", () => {
    expect(numberLimitText({ min: 0 }, { currency: "USD" })).toBe("USD 0.00 or more.");
    expect(numberLimitText({ min: 0 }, { currency: "eur", per: "month" })).toBe(
      "EUR 0.00 or more per month.",
    );
    expect(numberLimitText({ min: 0.5, max: 1000 }, { currency: "GBP" })).toBe(
      "Between GBP 0.50 and GBP 1,000.00.",
    );
    expect(numberLimitText({ min: 0.0025 }, { currency: "USD" })).toBe("USD 0.0025 or more.");
  });

  it("says whole numbers first, the range after in lower case", () => {
    expect(numberLimitText({ min: 1, max: 36_500, integer: true }, { unit: "days" })).toBe(
      "Whole number, between 1 and 36,500 days.",
    );
    expect(numberLimitText({ min: 0, minExclusive: true, integer: true })).toBe("Whole number, more than 0.");
    expect(numberLimitText({ min: 0, integer: true }, { currency: "USD" })).toBe(
      "Whole number, USD 0.00 or more.",
    );
    expect(numberLimitText({ integer: true }, { unit: "seats" })).toBe("Whole number.");
  });

  it("says nothing when there is no limit", () => {
    expect(numberLimitText({})).toBeNull();
    expect(numberLimitText({ required: true }, { unit: "seats", per: "month" })).toBeNull();
  });
});
