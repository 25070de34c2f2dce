import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addMonthsClamped, periodOf, periodUnits } from "./period.ts";

const at = (iso: string) => new Date(iso);

describe("metering periods", () => {
  it("Calendar periods follow UTC boundaries; weeks start on Monday", () => {
    const t = at("2026-11-26T15:42:10.123Z"); // a Thursday
    const m = (period: string) => periodOf({ consumptionPeriod: period, periodAnchor: "Calendar" }, t, t);
    expect(m("minute")).toMatchObject({ start: at("2026-11-26T15:42:00Z"), end: at("2026-11-26T15:43:00Z") });
    expect(m("hour")).toMatchObject({ start: at("2026-11-26T15:00:00Z"), end: at("2026-11-26T16:00:00Z") });
    expect(m("day")).toMatchObject({ start: at("2026-11-26T00:00:00Z"), end: at("2026-11-27T00:00:00Z") });
    expect(m("week")).toMatchObject({ start: at("2026-11-23T00:00:00Z"), end: at("2026-11-30T00:00:00Z") });
    expect(m("month")).toMatchObject({ start: at("2026-11-01T00:00:00Z"), end: at("2026-12-01T00:00:00Z") });
    expect(m("year")).toMatchObject({
      key: "year:2026-01-01T00:00:00.000Z",
      start: at("2026-01-01T00:00:00Z"),
      end: at("2027-01-01T00:00:00Z"),
    });
  });

  it("a blank or unrecognised consumptionPeriod is one lifetime period; an unknown anchor is Calendar", () => {
    const t = new Date();
    expect(periodOf({ consumptionPeriod: "", periodAnchor: "Calendar" }, t, t).key).toBe("lifetime");
    expect(periodOf({ consumptionPeriod: "fortnight", periodAnchor: "Calendar" }, t, t).key).toBe("lifetime");
    expect(periodOf({ consumptionPeriod: "day", periodAnchor: "Whatever" }, t, t).start).toEqual(
      periodOf({ consumptionPeriod: "day", periodAnchor: "Calendar" }, t, t).start,
    );
  });

  it("EntitlementStart months step from the anchor with the day clamped to the month's length", () => {
    const anchor = at("2026-01-31T10:20:30Z");
    expect(addMonthsClamped(anchor, 1)).toEqual(at("2026-02-28T10:20:30Z"));
    expect(addMonthsClamped(anchor, 2)).toEqual(at("2026-03-31T10:20:30Z"));
    expect(addMonthsClamped(at("2024-02-29T00:00:00Z"), 12)).toEqual(at("2025-02-28T00:00:00Z"));
    const p = periodOf(
      { consumptionPeriod: "month", periodAnchor: "EntitlementStart" },
      anchor,
      at("2026-03-01T00:00:00Z"),
    );
    expect(p).toMatchObject({ start: at("2026-02-28T10:20:30Z"), end: at("2026-03-31T10:20:30Z") });
    const before = periodOf(
      { consumptionPeriod: "month", periodAnchor: "EntitlementStart" },
      anchor,
      at("2026-01-15T00:00:00Z"),
    );
    expect(before).toMatchObject({ start: at("2025-12-31T10:20:30Z"), end: anchor });
  });

  it("every moment lies in [start, end) of its period, and the next period starts where it ends", () => {
    const time = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) });
    fc.assert(
      fc.property(
        fc.constantFrom(...periodUnits),
        fc.constantFrom("Calendar", "EntitlementStart"),
        time,
        time,
        (unit, anchor, anchorMs, atMs) => {
          const meter = { consumptionPeriod: unit, periodAnchor: anchor };
          const p = periodOf(meter, new Date(anchorMs), new Date(atMs));
          expect(p.start!.getTime()).toBeLessThanOrEqual(atMs);
          expect(p.end!.getTime()).toBeGreaterThan(atMs);
          const next = periodOf(meter, new Date(anchorMs), p.end!);
          expect(next.start).toEqual(p.end);
          expect(next.key).not.toBe(p.key);
        },
      ),
    );
  });
});
