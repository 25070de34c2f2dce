import { describe, expect, it } from "vitest";
import { applyLapseRules, applyModeChange, subscriptionStatusFor } from "./billing-lapse.ts";
import { ZBillingFields, readEnum, billingStates } from "./billing.schemas.ts";

const base = {
  mode: "ProviderManaged",
  state: "Active",
  pastDueSince: null,
  lapsedPendingSince: null,
  lapsedAt: null,
  currentPeriodEnd: null,
};
const d = (s: string) => new Date(s);

describe("billing lapse rules", () => {
  it("a past-due episode lapses after 14 days, not before", () => {
    const open = applyLapseRules(base, "PastDue", d("2030-01-01T00:00:00Z"));
    expect(open).toEqual({
      pastDueSince: d("2030-01-01T00:00:00Z"),
      lapsedPendingSince: null,
      lapsedAt: null,
    });
    expect(applyLapseRules({ ...base, ...open }, "PastDue", d("2030-01-14T23:59:59Z")).lapsedAt).toBeNull();
    expect(applyLapseRules({ ...base, ...open }, "Incomplete", d("2030-01-15T00:00:00Z")).lapsedAt).toEqual(
      d("2030-01-15T00:00:00Z"),
    );
  });

  it("a payment ends the episode and lifts the lapse; neutral states change nothing", () => {
    const lapsed = { ...base, pastDueSince: d("2030-01-01T00:00:00Z"), lapsedAt: d("2030-01-15T00:00:00Z") };
    expect(applyLapseRules(lapsed, "Paid", d("2030-02-01T00:00:00Z"))).toEqual({
      pastDueSince: null,
      lapsedPendingSince: null,
      lapsedAt: null,
    });
    expect(applyLapseRules(lapsed, "Paused", d("2030-02-01T00:00:00Z"))).toMatchObject({
      lapsedAt: d("2030-01-15T00:00:00Z"),
    });
  });

  it("Canceled lapses once the paid period is over; under OperatorManaged the lapse is pending", () => {
    const period = { ...base, currentPeriodEnd: d("2030-05-01T00:00:00Z") };
    expect(applyLapseRules(period, "Canceled", d("2030-04-30T00:00:00Z")).lapsedAt).toBeNull();
    expect(applyLapseRules(period, "Canceled", d("2030-05-01T00:00:00Z")).lapsedAt).toEqual(
      d("2030-05-01T00:00:00Z"),
    );
    expect(
      applyLapseRules({ ...period, mode: "OperatorManaged" }, "Canceled", d("2030-05-02T00:00:00Z")),
    ).toMatchObject({ lapsedAt: null, lapsedPendingSince: d("2030-05-02T00:00:00Z") });
  });

  it("mode changes move a recorded lapse between pending and applied", () => {
    const at = d("2030-06-01T00:00:00Z");
    expect(
      applyModeChange(
        { lapsedPendingSince: d("2030-05-02T00:00:00Z"), lapsedAt: null },
        "OperatorManaged",
        "ProviderManaged",
        at,
      ),
    ).toEqual({ lapsedPendingSince: null, lapsedAt: at });
    expect(
      applyModeChange({ lapsedPendingSince: null, lapsedAt: at }, "ProviderManaged", "OperatorManaged", at),
    ).toEqual({ lapsedPendingSince: at, lapsedAt: null });
    expect(subscriptionStatusFor({ state: "Paid", lapsedAt: at })).toBe("Lapsed");
    expect(subscriptionStatusFor({ state: "Trialing", lapsedAt: null })).toBe("Active");
    expect(subscriptionStatusFor({ state: "None", lapsedAt: null })).toBeNull();
  });

  it("billing fields: unknown enum members read as Unknown; details keys carry the provider prefix", () => {
    expect(readEnum(billingStates, "Frozen")).toBe("Unknown");
    expect(readEnum(billingStates, "PastDue")).toBe("PastDue");
    expect(ZBillingFields.safeParse({ provider: "manual", details: { "manual.x": "1" } }).success).toBe(true);
    expect(ZBillingFields.safeParse({ provider: "manual", details: { "manual.": "1" } }).success).toBe(false);
    expect(ZBillingFields.safeParse({ provider: "manual", details: { "stripe.x": "1" } }).success).toBe(
      false,
    );
  });
});
