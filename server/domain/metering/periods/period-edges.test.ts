import { describe, expect, it } from "vitest";
import { LIFETIME, addMonthsClamped, periodOf } from "./period.ts";

/** Consumption periods (docs/decisions.md "Metering"), every boundary written out. */
const d = (iso: string) => new Date(iso);
const ANY = d("2020-01-01T00:00:00.000Z");
const calendar = (consumptionPeriod: string, at: string) =>
  periodOf({ consumptionPeriod, periodAnchor: "Calendar" }, ANY, d(at));
const anchored = (consumptionPeriod: string, anchor: string, at: string) =>
  periodOf({ consumptionPeriod, periodAnchor: "EntitlementStart" }, d(anchor), d(at));
const span = (p: { key: string; start: Date | null; end: Date | null }) => [
  p.key,
  p.start?.toISOString() ?? null,
  p.end?.toISOString() ?? null,
];

describe("calendar periods (UTC)", () => {
  it.each([
    ["minute", "2026-03-15T10:20:30.500Z", "2026-03-15T10:20:00.000Z", "2026-03-15T10:21:00.000Z"],
    ["hour", "2026-03-15T10:20:30.500Z", "2026-03-15T10:00:00.000Z", "2026-03-15T11:00:00.000Z"],
    ["day", "2026-03-15T10:20:30.500Z", "2026-03-15T00:00:00.000Z", "2026-03-16T00:00:00.000Z"],
    // 2026-03-15 is a Sunday: its week began on Monday the 9th.
    ["week", "2026-03-15T23:59:59.999Z", "2026-03-09T00:00:00.000Z", "2026-03-16T00:00:00.000Z"],
    ["week", "2026-03-16T00:00:00.000Z", "2026-03-16T00:00:00.000Z", "2026-03-23T00:00:00.000Z"],
    ["week", "2026-03-11T12:00:00.000Z", "2026-03-09T00:00:00.000Z", "2026-03-16T00:00:00.000Z"],
    ["month", "2026-03-15T10:20:30.500Z", "2026-03-01T00:00:00.000Z", "2026-04-01T00:00:00.000Z"],
    ["month", "2026-12-31T23:59:59.999Z", "2026-12-01T00:00:00.000Z", "2027-01-01T00:00:00.000Z"],
    ["year", "2026-03-15T10:20:30.500Z", "2026-01-01T00:00:00.000Z", "2027-01-01T00:00:00.000Z"],
  ])("%s at %s: [%s, %s)", (unit, at, start, end) => {
    expect(span(calendar(unit, at))).toEqual([`${unit}:${start}`, start, end]);
    expect(calendar(unit, at).unit).toBe(unit);
  });

  it("an unrecognised anchor counts as Calendar", () => {
    expect(
      span(
        periodOf({ consumptionPeriod: "day", periodAnchor: "Whenever" }, ANY, d("2026-03-15T10:00:00.000Z")),
      ),
    ).toEqual(["day:2026-03-15T00:00:00.000Z", "2026-03-15T00:00:00.000Z", "2026-03-16T00:00:00.000Z"]);
  });

  it("a blank or unknown consumptionPeriod is one lifetime period", () => {
    expect(calendar("", "2026-03-15T10:00:00.000Z")).toEqual(LIFETIME);
    expect(calendar("fortnight", "2026-03-15T10:00:00.000Z")).toEqual(LIFETIME);
    expect(anchored("Month", "2026-01-01T00:00:00.000Z", "2026-03-15T10:00:00.000Z")).toEqual(LIFETIME);
    expect(LIFETIME).toEqual({ key: "lifetime", unit: null, start: null, end: null });
  });
});

describe("periods counted from the entitlement's start", () => {
  it.each([
    // Fixed lengths: whole steps from the anchor, either side of it.
    [
      "minute",
      "2026-01-01T10:00:30.000Z",
      "2026-01-01T10:05:10.000Z",
      "2026-01-01T10:04:30.000Z",
      "2026-01-01T10:05:30.000Z",
    ],
    [
      "hour",
      "2026-01-01T10:30:00.000Z",
      "2026-01-01T10:29:59.999Z",
      "2026-01-01T09:30:00.000Z",
      "2026-01-01T10:30:00.000Z",
    ],
    [
      "day",
      "2026-01-01T06:00:00.000Z",
      "2026-01-03T05:59:00.000Z",
      "2026-01-02T06:00:00.000Z",
      "2026-01-03T06:00:00.000Z",
    ],
    [
      "day",
      "2026-01-01T06:00:00.000Z",
      "2025-12-31T07:00:00.000Z",
      "2025-12-31T06:00:00.000Z",
      "2026-01-01T06:00:00.000Z",
    ],
    [
      "week",
      "2026-01-01T00:00:00.000Z",
      "2026-01-15T00:00:00.000Z",
      "2026-01-15T00:00:00.000Z",
      "2026-01-22T00:00:00.000Z",
    ],
    // Months: the anchor's day, clamped to the month, and its time of day.
    [
      "month",
      "2026-01-31T12:00:00.000Z",
      "2026-02-28T12:00:00.000Z",
      "2026-02-28T12:00:00.000Z",
      "2026-03-31T12:00:00.000Z",
    ],
    [
      "month",
      "2026-01-31T12:00:00.000Z",
      "2026-02-28T11:59:59.999Z",
      "2026-01-31T12:00:00.000Z",
      "2026-02-28T12:00:00.000Z",
    ],
    [
      "month",
      "2024-01-31T00:00:00.000Z",
      "2024-03-01T00:00:00.000Z",
      "2024-02-29T00:00:00.000Z",
      "2024-03-31T00:00:00.000Z",
    ],
    [
      "month",
      "2026-01-15T00:00:00.000Z",
      "2026-03-14T23:00:00.000Z",
      "2026-02-15T00:00:00.000Z",
      "2026-03-15T00:00:00.000Z",
    ],
    [
      "month",
      "2026-01-15T00:00:00.000Z",
      "2026-03-15T00:00:00.000Z",
      "2026-03-15T00:00:00.000Z",
      "2026-04-15T00:00:00.000Z",
    ],
    [
      "month",
      "2026-05-20T00:00:00.000Z",
      "2026-04-25T00:00:00.000Z",
      "2026-04-20T00:00:00.000Z",
      "2026-05-20T00:00:00.000Z",
    ],
    // Years step twelve months.
    [
      "year",
      "2024-02-29T00:00:00.000Z",
      "2025-03-01T00:00:00.000Z",
      "2025-02-28T00:00:00.000Z",
      "2026-02-28T00:00:00.000Z",
    ],
    [
      "year",
      "2024-06-01T00:00:00.000Z",
      "2026-05-31T00:00:00.000Z",
      "2025-06-01T00:00:00.000Z",
      "2026-06-01T00:00:00.000Z",
    ],
    [
      "year",
      "2024-06-01T00:00:00.000Z",
      "2024-06-01T00:00:00.000Z",
      "2024-06-01T00:00:00.000Z",
      "2025-06-01T00:00:00.000Z",
    ],
  ])("%s from %s, at %s: [%s, %s)", (unit, anchor, at, start, end) => {
    expect(span(anchored(unit, anchor, at))).toEqual([`${unit}:${start}`, start, end]);
  });
});

describe("addMonthsClamped", () => {
  it.each([
    ["2026-01-31T08:15:00.000Z", 1, "2026-02-28T08:15:00.000Z"],
    ["2026-03-31T08:15:00.000Z", -1, "2026-02-28T08:15:00.000Z"],
    ["2026-03-31T08:15:00.000Z", -13, "2025-02-28T08:15:00.000Z"],
    ["2026-11-30T00:00:00.000Z", 3, "2027-02-28T00:00:00.000Z"],
    ["2027-12-31T23:59:59.999Z", 2, "2028-02-29T23:59:59.999Z"],
    ["2026-01-10T00:00:00.000Z", 0, "2026-01-10T00:00:00.000Z"],
  ])("%s + %i months = %s", (anchor, months, expected) => {
    expect(addMonthsClamped(d(anchor), months).toISOString()).toBe(expected);
  });
});
