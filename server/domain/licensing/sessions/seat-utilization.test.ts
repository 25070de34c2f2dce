import { describe, expect, it } from "vitest";
import { bucketSeatUtilization } from "./seat-utilization.ts";

const t0 = new Date("2026-01-01T00:00:00Z");
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
const peaks = (intervals: [number, number][], count = 4, minutes = 240) =>
  bucketSeatUtilization(
    intervals.map(([s, e]) => ({ start: at(s), end: at(e) })),
    t0,
    at(minutes),
    count,
  ).map((b) => b.peakSeats);

describe("seat utilization buckets", () => {
  it("splits the window into equal consecutive buckets", () => {
    const buckets = bucketSeatUtilization([], t0, at(240), 4);
    expect(buckets.map((b) => [b.from.toISOString(), b.to.toISOString()])).toEqual([
      [at(0).toISOString(), at(60).toISOString()],
      [at(60).toISOString(), at(120).toISOString()],
      [at(120).toISOString(), at(180).toISOString()],
      [at(180).toISOString(), at(240).toISOString()],
    ]);
    expect(buckets.every((b) => b.peakSeats === 0)).toBe(true);
  });

  it("counts a session in every bucket it overlaps, peak = most seats held at one instant", () => {
    // A: whole window; B: 30-90; C: 70-80 (so bucket 2 peaks at 3); D: 200-230.
    expect(
      peaks([
        [0, 240],
        [30, 90],
        [70, 80],
        [200, 230],
      ]),
    ).toEqual([2, 3, 1, 2]);
  });

  it("sessions one after another in a bucket do not add up (half-open intervals)", () => {
    expect(
      peaks([
        [10, 20],
        [20, 30],
        [30, 40],
      ]),
    ).toEqual([1, 0, 0, 0]);
  });

  it("clips sessions that began before the window or run past it", () => {
    expect(
      peaks([
        [-500, 10],
        [230, 10_000],
      ]),
    ).toEqual([1, 0, 0, 1]);
  });

  it("ignores sessions wholly outside the window and empty ones", () => {
    expect(
      peaks([
        [-100, -10],
        [300, 400],
        [50, 50],
        [60, 40],
      ]),
    ).toEqual([0, 0, 0, 0]);
  });

  it("a session ending exactly at a bucket boundary does not count in the next bucket", () => {
    expect(
      peaks([
        [0, 60],
        [60, 120],
      ]),
    ).toEqual([1, 1, 0, 0]);
  });
});
