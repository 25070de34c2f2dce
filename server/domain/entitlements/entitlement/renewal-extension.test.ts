import { describe, expect, it } from "vitest";
import { extendedEnd } from "./renewal-extension.ts";
import { ZEntitlementBulkRenewRequest } from "./renewal.schemas.ts";

const at = (iso: string) => new Date(iso);

describe("extendedEnd (the bulk extension of one entitlement's end)", () => {
  it("moves the end to the chosen day at its own time of day", () => {
    expect(
      extendedEnd({ kind: "until", date: "2027-12-12" }, at("2027-03-01T12:00:00.000Z")).toISOString(),
    ).toBe("2027-12-12T12:00:00.000Z");
    expect(
      extendedEnd({ kind: "until", date: "2028-01-31" }, at("2027-06-30T23:59:59.500Z")).toISOString(),
    ).toBe("2028-01-31T23:59:59.500Z");
  });

  it("adds days, calendar months (clamped to the month's length) and years from the current end", () => {
    const end = at("2027-01-31T08:30:00.000Z");
    expect(extendedEnd({ kind: "by", count: 30, unit: "days" }, end).toISOString()).toBe(
      "2027-03-02T08:30:00.000Z",
    );
    expect(extendedEnd({ kind: "by", count: 1, unit: "months" }, end).toISOString()).toBe(
      "2027-02-28T08:30:00.000Z",
    );
    expect(extendedEnd({ kind: "by", count: 13, unit: "months" }, end).toISOString()).toBe(
      "2028-02-29T08:30:00.000Z",
    );
    expect(
      extendedEnd({ kind: "by", count: 1, unit: "years" }, at("2028-02-29T00:00:00.000Z")).toISOString(),
    ).toBe("2029-02-28T00:00:00.000Z");
  });
});

describe("ZEntitlementBulkRenewRequest", () => {
  const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  const by = { kind: "by", count: 1, unit: "years" } as const;

  it("takes 1 to 100 distinct ids", () => {
    expect(ZEntitlementBulkRenewRequest.safeParse({ ids: [id(1)], extension: by }).success).toBe(true);
    const hundred = Array.from({ length: 100 }, (_, i) => id(i));
    expect(ZEntitlementBulkRenewRequest.safeParse({ ids: hundred, extension: by }).success).toBe(true);
  });

  it("refuses none, more than 100, a repeated id and a period out of range, each with a plain sentence", () => {
    const message = (input: unknown) => {
      const parsed = ZEntitlementBulkRenewRequest.safeParse(input);
      return parsed.success ? null : parsed.error.issues.map((i) => i.message);
    };
    expect(message({ ids: [], extension: by })).toEqual(["Choose at least one entitlement."]);
    expect(message({ ids: Array.from({ length: 101 }, (_, i) => id(i)), extension: by })).toEqual([
      "Renew at most 100 entitlements at a time.",
    ]);
    expect(message({ ids: [id(1), id(1)], extension: by })).toEqual(["Choose each entitlement once."]);
    expect(message({ ids: [id(1)], extension: { kind: "by", count: 0, unit: "days" } })).toEqual([
      "Extend by at least 1.",
    ]);
    expect(message({ ids: [id(1)], extension: { kind: "until", date: "12/12/2027" } })).toEqual([
      "Give the new end date as a day (yyyy-mm-dd).",
    ]);
  });
});
