import { describe, expect, it } from "vitest";
import { mapUsageEvent } from "../usage/event-mapping.ts";
import { chargeBalance, remainingOf, type BalanceState } from "./balance-charge.ts";

/**
 * What a charge does to a credit balance (docs/api.md balanceUsage), each answer compared whole,
 * and how a usage record maps to a metric (docs/decisions.md "Metering").
 * 1 credit = 1_000_000n micro-units.
 */
const U = 1_000_000n;
const AT = new Date("2026-06-01T00:00:00.000Z");
const balance = (fields: Partial<BalanceState> = {}): BalanceState => ({
  totalCredits: 100n * U,
  creditsUsed: 0n,
  isUnlimitedCredits: false,
  suspendedUntilAt: null,
  usageQuota: [
    { endUsage: 50, name: "Low", quotaUsageLevel: "Medium" },
    { endUsage: 20, name: "Empty", quotaUsageLevel: "Critical" },
  ],
  ...fields,
});

describe("chargeBalance", () => {
  it("remaining credits: total less used", () => {
    expect(remainingOf({ totalCredits: 100n * U, creditsUsed: 30n * U })).toBe(70n * U);
  });

  it("a consume within the credits is paid whole", () => {
    expect(chargeBalance(balance({ creditsUsed: 10n * U }), 30n * U, AT, "consume")).toEqual({
      paid: 30n * U,
      unfunded: 0n,
      refusal: null,
      creditsUsedAfter: 40n * U,
      remainingAfter: 60n * U,
      severityAfter: "None",
    });
  });

  it("a consume of exactly the credits left is paid", () => {
    const charge = chargeBalance(balance({ usageQuota: [] }), 100n * U, AT, "consume");
    expect(charge).toEqual({
      paid: 100n * U,
      unfunded: 0n,
      refusal: null,
      creditsUsedAfter: 100n * U,
      remainingAfter: 0n,
      severityAfter: "None",
    });
  });

  it("a charge that crosses into a band reports the band's severity after it", () => {
    expect(chargeBalance(balance(), 60n * U, AT, "consume")).toEqual({
      paid: 60n * U,
      unfunded: 0n,
      refusal: null,
      creditsUsedAfter: 60n * U,
      remainingAfter: 40n * U,
      severityAfter: "Medium",
    });
  });

  it("a refused consume charges nothing and says why", () => {
    expect(chargeBalance(balance(), 101n * U, AT, "consume")).toEqual({
      paid: 0n,
      unfunded: 0n,
      refusal: "InsufficientCredits",
      creditsUsedAfter: 0n,
      remainingAfter: 100n * U,
      severityAfter: "None",
    });
    expect(chargeBalance(balance({ creditsUsed: 85n * U }), 1n, AT, "consume")).toEqual({
      paid: 0n,
      unfunded: 0n,
      refusal: "CriticalBalance",
      creditsUsedAfter: 85n * U,
      remainingAfter: 15n * U,
      severityAfter: "Critical",
    });
  });

  it("a suspension holds until its instant, not after", () => {
    const suspended = (until: Date) =>
      chargeBalance(balance({ suspendedUntilAt: until }), 1n * U, AT, "consume");
    expect(suspended(new Date("2026-06-01T00:00:00.001Z")).refusal).toBe("BalanceSuspended");
    expect(suspended(AT).refusal).toBeNull();
    expect(suspended(new Date("2026-05-31T00:00:00.000Z")).refusal).toBeNull();
    // A suspension is named before a Critical band or a shortfall.
    expect(
      chargeBalance(
        balance({ creditsUsed: 95n * U, suspendedUntilAt: new Date("2026-07-01T00:00:00.000Z") }),
        50n * U,
        AT,
        "consume",
      ).refusal,
    ).toBe("BalanceSuspended");
    // A Critical band before a shortfall.
    expect(chargeBalance(balance({ creditsUsed: 95n * U }), 50n * U, AT, "consume").refusal).toBe(
      "CriticalBalance",
    );
  });

  it("nothing to charge: nothing happens, whatever the balance's state", () => {
    const suspended = balance({
      creditsUsed: 90n * U,
      suspendedUntilAt: new Date("2026-07-01T00:00:00.000Z"),
    });
    for (const credits of [0n, -5n * U])
      expect(chargeBalance(suspended, credits, AT, "consume")).toEqual({
        paid: 0n,
        unfunded: 0n,
        refusal: null,
        creditsUsedAfter: 90n * U,
        remainingAfter: 10n * U,
        severityAfter: "Critical",
      });
  });

  it("an unlimited balance always pays, even past its total", () => {
    expect(
      chargeBalance(balance({ isUnlimitedCredits: true, creditsUsed: 99n * U }), 1000n * U, AT, "usage"),
    ).toEqual({
      paid: 1000n * U,
      unfunded: 0n,
      refusal: null,
      creditsUsedAfter: 1099n * U,
      remainingAfter: -999n * U,
      severityAfter: "Critical",
    });
  });

  it("uploaded usage: paid as far as the credits go, the rest unfunded; refused whole by a suspension or a Critical band", () => {
    expect(chargeBalance(balance({ creditsUsed: 70n * U, usageQuota: [] }), 50n * U, AT, "usage")).toEqual({
      paid: 30n * U,
      unfunded: 20n * U,
      refusal: null,
      creditsUsedAfter: 100n * U,
      remainingAfter: 0n,
      severityAfter: "None",
    });
    expect(chargeBalance(balance({ creditsUsed: 30n * U, usageQuota: [] }), 50n * U, AT, "usage")).toEqual({
      paid: 50n * U,
      unfunded: 0n,
      refusal: null,
      creditsUsedAfter: 80n * U,
      remainingAfter: 20n * U,
      severityAfter: "None",
    });
    expect(
      chargeBalance(
        balance({ creditsUsed: 10n * U, suspendedUntilAt: new Date("2026-07-01T00:00:00.000Z") }),
        5n * U,
        AT,
        "usage",
      ),
    ).toEqual({
      paid: 0n,
      unfunded: 5n * U,
      refusal: null,
      creditsUsedAfter: 10n * U,
      remainingAfter: 90n * U,
      severityAfter: "None",
    });
  });

  it("an overdrawn balance (more used than its total) pays nothing of uploaded usage", () => {
    expect(chargeBalance(balance({ creditsUsed: 110n * U, usageQuota: [] }), 5n * U, AT, "usage")).toEqual({
      paid: 0n,
      unfunded: 5n * U,
      refusal: null,
      creditsUsedAfter: 110n * U,
      remainingAfter: -10n * U,
      severityAfter: "None",
    });
  });
});

describe("mapUsageEvent at its edges", () => {
  const tracked = (m: string) => ["api-calls", "storage-gb"].includes(m);

  it.each([
    ["null", { unmatched: "eventData is not a JSON object" }],
    ['"text"', { unmatched: "eventData is not a JSON object" }],
    ["3", { unmatched: "eventData is not a JSON object" }],
    ['{"metricName": 7}', { unmatched: 'no tracked metric "api-calls-event"' }],
    ['{"metricName": "api-calls", "amount": "1e3"}', { metricName: "api-calls", amount: 1000n * U }],
    ['{"metricName": "api-calls", "amount": 0}', { metricName: "api-calls", amount: 0n }],
    ['{"metricName": "api-calls", "amount": "-0.0000001"}', { metricName: "api-calls", amount: 0n }],
    ['{"metricName": "api-calls", "amount": "-0.000001"}', { unmatched: "amount is out of range" }],
    ['{"metricName": "api-calls", "amount": "abc"}', { unmatched: "amount is not a number" }],
    ['{"metricName": "api-calls", "amount": null}', { unmatched: "amount is not a number" }],
    [
      // The columns hold DECIMAL(24,6): 10^18 itself has one integer digit too many.
      '{"metricName": "api-calls", "amount": "1000000000000000000"}',
      { unmatched: "amount is out of range" },
    ],
    [
      '{"metricName": "api-calls", "amount": "999999999999999999.9999995"}',
      { unmatched: "amount is out of range" },
    ],
    [
      '{"metricName": "api-calls", "amount": "999999999999999999.999999"}',
      { metricName: "api-calls", amount: 10n ** 24n - 1n },
    ],
  ])("%s", (eventData, expected) => {
    expect(mapUsageEvent("api-calls-event", eventData, tracked)).toEqual(expected);
  });
});
