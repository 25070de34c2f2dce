import { describe, expect, it } from "vitest";
import {
  csvDate,
  csvDecimal,
  formatCompact,
  formatCountOf,
  formatDate,
  formatDateTime,
  formatMoney,
  formatPercent,
  formatQuantity,
  formatRelative,
} from "@/server/core/format";

describe("formatQuantity", () => {
  it("drops trailing zeros, groups thousands and adds the unit", () => {
    expect(formatQuantity("1200.000000")).toBe("1,200");
    expect(formatQuantity("1000000000459")).toBe("1,000,000,000,459");
    expect(formatQuantity("0.500000", "GB")).toBe("0.5 GB");
    expect(formatQuantity(1234.5678, "calls")).toBe("1,234.5678 calls");
    expect(formatQuantity("-42.100")).toBe("-42.1");
    expect(formatQuantity("0.000000")).toBe("0");
    expect(formatQuantity(null)).toBe("—");
    expect(formatQuantity("12345678901234567890.123456")).toBe("12,345,678,901,234,567,890.123456");
    expect(formatQuantity("2.456", null, { maxDecimals: 1 })).toBe("2.5");
  });
});

describe("formatCountOf", () => {
  it("says the noun in the singular for exactly one, the plural otherwise", () => {
    expect(formatCountOf(1, "seat")).toBe("1 seat");
    expect(formatCountOf(0, "seat")).toBe("0 seats");
    expect(formatCountOf(2, "device")).toBe("2 devices");
    expect(formatCountOf(1200, "code")).toBe("1,200 codes");
    expect(formatCountOf("1.000000", "session")).toBe("1 session");
    expect(formatCountOf(1.5, "credit")).toBe("1.5 credits");
    expect(formatCountOf(-1, "day")).toBe("-1 days");
  });

  it("takes an irregular plural", () => {
    expect(formatCountOf(1, "entry", "entries")).toBe("1 entry");
    expect(formatCountOf(3, "entry", "entries")).toBe("3 entries");
  });
});

describe("formatMoney", () => {
  it("shows the currency code, Free for 0, cents only when there are any", () => {
    expect(formatMoney("0.000000", "EUR", { per: "month" })).toBe("Free");
    expect(formatMoney(0, "usd")).toBe("Free");
    expect(formatMoney("1234.5", "EUR")).toBe("EUR 1,234.50");
    expect(formatMoney("49.000000", "EUR", { per: "month" })).toBe("EUR 49 /month");
    expect(formatMoney("0.0025", "USD")).toBe("USD 0.0025");
    expect(formatMoney(-12.3, "GBP")).toBe("GBP -12.30");
    expect(formatMoney(null, "EUR")).toBe("—");
  });
});

describe("formatPercent and formatCompact", () => {
  it("reads as people write them", () => {
    expect(formatPercent(0.125)).toBe("12.5%");
    expect(formatPercent(1)).toBe("100%");
    expect(formatPercent(0.33333, 2)).toBe("33.33%");
    expect(formatPercent(null)).toBe("—");
    expect(formatCompact(950)).toBe("950");
    expect(formatCompact(12_400)).toBe("12k");
    expect(formatCompact(1_500_000)).toBe("1.5M");
    expect(formatCompact(1_000_000_000_459)).toBe("1T");
  });
});

describe("dates", () => {
  it("absolute in UTC, relative to now, ISO for CSV", () => {
    expect(formatDate("2026-11-27T10:05:00Z")).toBe("27 Nov 2026");
    expect(formatDateTime("2026-11-27T10:05:00Z")).toBe("27 Nov 2026, 10:05");
    const now = new Date("2026-11-27T12:00:00Z");
    expect(formatRelative("2026-11-24T12:00:00Z", now)).toBe("3 days ago");
    expect(formatRelative("2026-11-27T14:00:00Z", now)).toBe("in 2 hours");
    expect(formatRelative("2026-11-27T11:59:30Z", now)).toBe("now");
    expect(formatRelative(null, now)).toBe("—");
    expect(csvDate(new Date("2026-11-27T10:05:00Z"))).toBe("2026-11-27T10:05:00.000Z");
    expect(csvDate(null)).toBe("");
  });
});

describe("csvDecimal", () => {
  it("is the plain decimal a spreadsheet parses", () => {
    expect(csvDecimal("1200.000000")).toBe("1200");
    expect(csvDecimal("-0.500000")).toBe("-0.5");
    expect(csvDecimal(3)).toBe("3");
    expect(csvDecimal(null)).toBe("");
  });
});
