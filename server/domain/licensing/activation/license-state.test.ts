import { describe, expect, it } from "vitest";
import type { Entitlement } from "../../../db/generated/client.ts";
import { licenseState, licenseStateAt, replayState } from "./license-state.ts";

/** The error a call throws, as the API names it: its code name and detail. */
function refusal(call: () => unknown): { codeName: string; message: string } | "no error" {
  try {
    call();
    return "no error";
  } catch (error) {
    const e = error as { codeName: string; message: string };
    return { codeName: e.codeName, message: e.message };
  }
}

const DAY = 86_400_000;
const END = new Date("2026-01-10T00:00:00.000Z");
const before = new Date("2026-01-09T23:59:59.999Z");
const after = (ms: number) => new Date(END.getTime() + ms);

const license = (over: Partial<Entitlement> = {}) =>
  ({
    subscriptionStatus: "Active",
    expirationDateTime: END,
    isEntitlementTrial: false,
    activationsEnabled: true,
    notValidBeforeDateTime: null,
    ...over,
  }) as unknown as Entitlement;

describe("licenseState: whether a license may run, and in which state", () => {
  it("an open-ended license is Active (a trial without an end is Trial)", () => {
    expect(licenseState(license({ expirationDateTime: null }), DAY, after(100 * DAY))).toBe("Active");
    expect(
      licenseState(license({ expirationDateTime: null, isEntitlementTrial: true }), DAY, after(DAY)),
    ).toBe("Trial");
  });

  it("before its expiration: Active, or Trial for a trial", () => {
    expect(licenseState(license(), DAY, before)).toBe("Active");
    expect(licenseState(license({ isEntitlementTrial: true }), DAY, before)).toBe("Trial");
  });

  it("from its expiration until gracePeriod after it: Grace; then expired", () => {
    expect(licenseState(license(), DAY, END)).toBe("Grace");
    expect(licenseState(license(), DAY, after(DAY - 1))).toBe("Grace");
    expect(refusal(() => licenseState(license(), DAY, after(DAY)))).toEqual({
      codeName: "license.expired",
      message: "The license expired at 2026-01-10T00:00:00.000Z.",
    });
  });

  it("without a grace period, expired at its expiration", () => {
    expect(refusal(() => licenseState(license(), 0, END))).toEqual({
      codeName: "license.expired",
      message: "The license expired at 2026-01-10T00:00:00.000Z.",
    });
  });

  it("a trial is over at its expiration, with no grace", () => {
    expect(refusal(() => licenseState(license({ isEntitlementTrial: true }), DAY, END))).toEqual({
      codeName: "license.trial_expired",
      message: "The trial ended at 2026-01-10T00:00:00.000Z.",
    });
  });

  it("a lapsed subscription stops the license whatever its dates", () => {
    expect(
      refusal(() =>
        licenseState(license({ subscriptionStatus: "Lapsed", expirationDateTime: null }), DAY, before),
      ),
    ).toEqual({ codeName: "license.subscription_lapsed", message: "The license's subscription has lapsed." });
  });
});

describe("licenseStateAt: activations enabled and the validity window first", () => {
  it("activations disabled", () => {
    expect(refusal(() => licenseStateAt(license({ activationsEnabled: false }), DAY, before))).toEqual({
      codeName: "license.activations_disabled",
      message: "Activations are disabled on this license.",
    });
  });

  it("not yet valid before notValidBefore; valid from that instant", () => {
    const from = new Date("2026-01-05T00:00:00.000Z");
    expect(
      refusal(() =>
        licenseStateAt(license({ notValidBeforeDateTime: from }), DAY, new Date("2026-01-04T23:59:59.999Z")),
      ),
    ).toEqual({
      codeName: "license.not_yet_valid",
      message: "The license is valid from 2026-01-05T00:00:00.000Z.",
    });
    expect(licenseStateAt(license({ notValidBeforeDateTime: from }), DAY, from)).toBe("Active");
  });

  it("then the license's state", () => {
    expect(licenseStateAt(license(), DAY, before)).toBe("Active");
    expect(licenseStateAt(license(), DAY, END)).toBe("Grace");
    expect(refusal(() => licenseStateAt(license(), DAY, after(DAY)))).toEqual({
      codeName: "license.expired",
      message: "The license expired at 2026-01-10T00:00:00.000Z.",
    });
  });
});

describe("replayState: what an idempotent replay reports, nothing decided again", () => {
  it("Trial for a trial, Grace from the expiration on, else Active", () => {
    expect(replayState(license({ isEntitlementTrial: true }), after(10 * DAY))).toBe("Trial");
    expect(replayState(license(), before)).toBe("Active");
    expect(replayState(license(), END)).toBe("Grace");
    expect(replayState(license(), after(10 * DAY))).toBe("Grace");
    expect(replayState(license({ expirationDateTime: null }), after(10 * DAY))).toBe("Active");
  });
});
