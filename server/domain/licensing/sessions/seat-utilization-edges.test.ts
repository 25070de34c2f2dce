import { describe, expect, it } from "vitest";
import { bucketSeatUtilization } from "./seat-utilization.ts";

/** Seat utilization buckets at their edges: peaks written out per bucket of 60 minutes. */
const t0 = new Date("2026-01-01T00:00:00.000Z");
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
const peaks = (intervals: [number, number][]) =>
  bucketSeatUtilization(
    intervals.map(([s, e]) => ({ start: at(s), end: at(e) })),
    t0,
    at(240),
    4,
  ).map((b) => b.peakSeats);

describe("seat utilization buckets, edges", () => {
  it("a session starting exactly at a bucket boundary counts in the bucket it starts, not the one before", () => {
    expect(peaks([[60, 120]])).toEqual([0, 1, 0, 0]);
  });

  it("one seat freed and another taken at the same instant never count together, whatever order they come in", () => {
    expect(
      peaks([
        [30, 40],
        [20, 30],
        [10, 20],
      ]),
    ).toEqual([1, 0, 0, 0]);
  });

  it("an interval that ends before it starts takes no seat away from the others", () => {
    expect(
      peaks([
        [0, 240],
        [200, 10],
      ]),
    ).toEqual([1, 1, 1, 1]);
  });

  it("the last bucket ends exactly at the window's end, even when the width is not a whole number of milliseconds", () => {
    const buckets = bucketSeatUtilization([], new Date(0), new Date(3), 47);
    expect(buckets).toHaveLength(47);
    expect(buckets[46].to.toISOString()).toBe("1970-01-01T00:00:00.003Z");
    expect(buckets[0].from.toISOString()).toBe("1970-01-01T00:00:00.000Z");
  });
});
