import { describe, expect, it } from "vitest";
import { autoBalanceAmounts } from "./run-auto-balances.ts";
import { latestScheduledInstant, nextScheduledInstants } from "./auto-balance-schedule.ts";
import { micros } from "../quantity.ts";

describe("auto-balance", () => {
  it("the schedule preview lists the next five run times in UTC", () => {
    expect(
      nextScheduledInstants("0 9 * * 1-5", new Date("2026-11-27T10:00:00Z")).map((d) => d.toISOString()),
    ).toEqual([
      "2026-11-30T09:00:00.000Z",
      "2026-12-01T09:00:00.000Z",
      "2026-12-02T09:00:00.000Z",
      "2026-12-03T09:00:00.000Z",
      "2026-12-04T09:00:00.000Z",
    ]);
  });

  it("the instant due is the latest one at or before now", () => {
    expect(latestScheduledInstant("0 * * * *", new Date("2026-11-27T10:00:00Z"))?.toISOString()).toBe(
      "2026-11-27T10:00:00.000Z",
    );
    expect(latestScheduledInstant("0 * * * *", new Date("2026-11-27T10:59:59Z"))?.toISOString()).toBe(
      "2026-11-27T10:00:00.000Z",
    );
  });

  it("credits become autoBalanceCreditAmount plus, when transferring, what remained (never negative), capped", () => {
    const run = (
      remaining: number,
      transfer: boolean,
      maxTransfer: number | null,
      creditAmount: number | null,
    ) =>
      autoBalanceAmounts({
        remaining: micros(remaining),
        transfer,
        maxTransfer: maxTransfer === null ? null : micros(maxTransfer),
        creditAmount: creditAmount === null ? null : micros(creditAmount),
      }).remainingAfter;
    expect(run(70, false, null, 100)).toBe(micros(100));
    expect(run(70, true, null, 100)).toBe(micros(170));
    expect(run(70, true, 50, 100)).toBe(micros(150));
    expect(run(-5, true, null, 100)).toBe(micros(100));
    expect(run(70, false, null, null)).toBe(0n);
  });
});
