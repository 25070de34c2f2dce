import { describe, expect, it } from "vitest";
import { chargeBalance, type BalanceState } from "./balance-charge.ts";
import { balanceSeverity, matchingBand } from "../overage/severity.ts";
import { micros } from "../quantity.ts";

const now = new Date("2026-06-01T00:00:00Z");
const balance = (fields: Partial<BalanceState> = {}): BalanceState => ({
  totalCredits: micros(100),
  creditsUsed: 0n,
  isUnlimitedCredits: false,
  suspendedUntilAt: null,
  usageQuota: [
    { endUsage: 50, name: "Low", quotaUsageLevel: "Medium" },
    { endUsage: 20, name: "Empty", quotaUsageLevel: "Critical" },
  ],
  ...fields,
});

describe("credit balance charges", () => {
  it("bands apply while the remaining balance is below their endUsage; the lowest matching threshold wins", () => {
    const bands = balance().usageQuota;
    expect(matchingBand(bands, micros(50))).toBeNull();
    expect(matchingBand(bands, micros("49.9"))?.name).toBe("Low");
    expect(matchingBand(bands, micros(10))?.name).toBe("Empty");
    expect(balanceSeverity(bands, micros(10))).toBe("Critical");
  });

  it("a consume is refused by a Critical band, a suspension or too few credits, and charged whole otherwise", () => {
    expect(chargeBalance(balance(), micros(30), now, "consume")).toMatchObject({
      paid: micros(30),
      refusal: null,
      severityAfter: "None",
    });
    expect(chargeBalance(balance(), micros(101), now, "consume")).toMatchObject({
      paid: 0n,
      refusal: "InsufficientCredits",
    });
    expect(chargeBalance(balance({ creditsUsed: micros(85) }), micros(1), now, "consume")).toMatchObject({
      refusal: "CriticalBalance",
    });
    expect(
      chargeBalance(balance({ suspendedUntilAt: new Date(now.getTime() + 1) }), micros(1), now, "consume"),
    ).toMatchObject({ refusal: "BalanceSuspended" });
    expect(chargeBalance(balance({ isUnlimitedCredits: true }), micros(1000), now, "consume")).toMatchObject({
      paid: micros(1000),
    });
  });

  it("uploaded usage is paid as far as the credits go; the rest is unfunded", () => {
    expect(chargeBalance(balance({ creditsUsed: micros(70) }), micros(50), now, "usage")).toMatchObject({
      paid: micros(30),
      unfunded: micros(20),
      remainingAfter: 0n,
    });
    expect(chargeBalance(balance({ creditsUsed: micros(85) }), micros(5), now, "usage")).toMatchObject({
      paid: 0n,
      unfunded: micros(5),
    });
  });
});
