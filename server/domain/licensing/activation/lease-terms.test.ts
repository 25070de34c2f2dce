import { describe, expect, it } from "vitest";
import type { TClaimBasedActivation } from "../../entitlements/entitlement/policies.schemas.ts";
import { OFFLINE_LEASE_MS, contactTerms, durationMs, leaseTerms } from "./lease-terms.ts";

/**
 * A session's lease (docs/decisions.md "Seats and leases"), every date written out. The claims are
 * the schema's defaults (lease PT1H, grace P1D, one seat) unless a case says otherwise.
 */
const claims = (over: Partial<TClaimBasedActivation> = {}): TClaimBasedActivation => ({
  leaseTime: "PT1H",
  gracePeriod: "P1D",
  numberOfSeats: 1,
  isFloatingLicense: false,
  isInactivityBased: false,
  inactivityTimeout: null,
  checkInInterval: null,
  componentMatchingStrategy: "MatchAll",
  allowOfflineActivation: false,
  ...over,
});
const d = (iso: string) => new Date(iso);
const AT = d("2026-01-01T00:00:00.000Z");
const open = { expirationDateTime: null, isEntitlementTrial: false };

describe("durationMs", () => {
  it("an ISO duration in milliseconds; none, or one that does not parse, is 0", () => {
    expect(durationMs("PT1H")).toBe(3_600_000);
    expect(durationMs("P1D")).toBe(86_400_000);
    expect(durationMs(null)).toBe(0);
    expect(durationMs(undefined)).toBe(0);
    expect(durationMs("")).toBe(0);
    expect(durationMs("one hour")).toBe(0);
  });

  it("an offline lease without a license end runs 365 days", () => {
    expect(OFFLINE_LEASE_MS).toBe(31_536_000_000);
  });
});

describe("leaseTerms: an online session", () => {
  it("an open-ended license: the lease runs leaseTime, grace gracePeriod after it, the seat for the lease", () => {
    expect(leaseTerms(open, claims(), "Online", "Active", AT)).toEqual({
      leaseExpiresAt: d("2026-01-01T01:00:00.000Z"),
      graceExpiresAt: d("2026-01-02T01:00:00.000Z"),
      seatHeldUntil: d("2026-01-01T01:00:00.000Z"),
      validUntil: null,
      nextCheckInDueAt: null,
    });
  });

  it("a license that ends after the lease: the lease is not cut, validUntil is the end", () => {
    const e = { expirationDateTime: d("2026-01-10T00:00:00.000Z"), isEntitlementTrial: false };
    expect(leaseTerms(e, claims(), "Online", "Active", AT)).toEqual({
      leaseExpiresAt: d("2026-01-01T01:00:00.000Z"),
      graceExpiresAt: d("2026-01-02T01:00:00.000Z"),
      seatHeldUntil: d("2026-01-01T01:00:00.000Z"),
      validUntil: d("2026-01-10T00:00:00.000Z"),
      nextCheckInDueAt: null,
    });
  });

  it("a license that ends within the lease: the lease stops at its end, grace runs on from there", () => {
    const e = { expirationDateTime: d("2026-01-01T00:30:00.000Z"), isEntitlementTrial: false };
    expect(leaseTerms(e, claims(), "Online", "Active", AT)).toEqual({
      leaseExpiresAt: d("2026-01-01T00:30:00.000Z"),
      graceExpiresAt: d("2026-01-02T00:30:00.000Z"),
      seatHeldUntil: d("2026-01-01T00:30:00.000Z"),
      validUntil: d("2026-01-01T00:30:00.000Z"),
      nextCheckInDueAt: null,
    });
  });

  it("in Grace: the lease and its grace stop at the end of the license's grace", () => {
    const e = { expirationDateTime: d("2026-01-01T00:00:00.000Z"), isEntitlementTrial: false };
    const at = d("2026-01-01T23:30:00.000Z");
    expect(leaseTerms(e, claims(), "Online", "Grace", at)).toEqual({
      leaseExpiresAt: d("2026-01-02T00:00:00.000Z"),
      graceExpiresAt: d("2026-01-02T00:00:00.000Z"),
      seatHeldUntil: d("2026-01-02T00:00:00.000Z"),
      validUntil: d("2026-01-02T00:00:00.000Z"),
      nextCheckInDueAt: null,
    });
  });

  it("a trial has no grace past its end", () => {
    const e = { expirationDateTime: d("2026-01-01T10:00:00.000Z"), isEntitlementTrial: true };
    expect(leaseTerms(e, claims(), "Online", "Trial", AT)).toEqual({
      leaseExpiresAt: d("2026-01-01T01:00:00.000Z"),
      graceExpiresAt: d("2026-01-01T10:00:00.000Z"),
      seatHeldUntil: d("2026-01-01T01:00:00.000Z"),
      validUntil: d("2026-01-01T10:00:00.000Z"),
      nextCheckInDueAt: null,
    });
  });

  it("another leaseTime and gracePeriod", () => {
    expect(
      leaseTerms(open, claims({ leaseTime: "PT15M", gracePeriod: "PT2H" }), "Online", "Active", AT),
    ).toEqual({
      leaseExpiresAt: d("2026-01-01T00:15:00.000Z"),
      graceExpiresAt: d("2026-01-01T02:15:00.000Z"),
      seatHeldUntil: d("2026-01-01T00:15:00.000Z"),
      validUntil: null,
      nextCheckInDueAt: null,
    });
  });
});

describe("leaseTerms: an offline session leases until the license ends", () => {
  it("an open-ended license: 365 days", () => {
    expect(leaseTerms(open, claims(), "Offline", "Active", AT)).toEqual({
      leaseExpiresAt: d("2027-01-01T00:00:00.000Z"),
      graceExpiresAt: d("2027-01-02T00:00:00.000Z"),
      seatHeldUntil: d("2027-01-01T00:00:00.000Z"),
      validUntil: null,
      nextCheckInDueAt: null,
    });
  });

  it("a license with an end: until that end (not leaseTime)", () => {
    const e = { expirationDateTime: d("2026-03-01T00:00:00.000Z"), isEntitlementTrial: false };
    expect(leaseTerms(e, claims(), "Offline", "Active", AT)).toEqual({
      leaseExpiresAt: d("2026-03-01T00:00:00.000Z"),
      graceExpiresAt: d("2026-03-02T00:00:00.000Z"),
      seatHeldUntil: d("2026-03-01T00:00:00.000Z"),
      validUntil: d("2026-03-01T00:00:00.000Z"),
      nextCheckInDueAt: null,
    });
  });

  it("in Grace: until the end of the license's grace", () => {
    const e = { expirationDateTime: d("2025-12-31T12:00:00.000Z"), isEntitlementTrial: false };
    expect(leaseTerms(e, claims(), "Offline", "Grace", AT)).toEqual({
      leaseExpiresAt: d("2026-01-01T12:00:00.000Z"),
      graceExpiresAt: d("2026-01-01T12:00:00.000Z"),
      seatHeldUntil: d("2026-01-01T12:00:00.000Z"),
      validUntil: d("2026-01-01T12:00:00.000Z"),
      nextCheckInDueAt: null,
    });
  });
});

describe("contactTerms: the seat hold and the next check-in", () => {
  const lease = d("2026-01-01T01:00:00.000Z");

  it("no inactivity and no check-in interval: the seat is held for the lease, no check-in is due", () => {
    expect(contactTerms(claims(), lease, AT)).toEqual({ seatHeldUntil: lease, nextCheckInDueAt: null });
  });

  it("inactivity-based: the seat is held inactivityTimeout after the contact, a check-in due halfway", () => {
    expect(contactTerms(claims({ isInactivityBased: true, inactivityTimeout: "PT10M" }), lease, AT)).toEqual({
      seatHeldUntil: d("2026-01-01T00:10:00.000Z"),
      nextCheckInDueAt: d("2026-01-01T00:05:00.000Z"),
    });
  });

  it("inactivity-based with a timeout past the lease: the hold and the check-in stop at the lease's end", () => {
    expect(contactTerms(claims({ isInactivityBased: true, inactivityTimeout: "PT3H" }), lease, AT)).toEqual({
      seatHeldUntil: lease,
      nextCheckInDueAt: lease,
    });
  });

  it("half an odd number of milliseconds rounds down", () => {
    expect(
      contactTerms(claims({ isInactivityBased: true, inactivityTimeout: "PT0.003S" }), lease, AT),
    ).toEqual({
      seatHeldUntil: d("2026-01-01T00:00:00.003Z"),
      nextCheckInDueAt: d("2026-01-01T00:00:00.001Z"),
    });
  });

  it("an inactivityTimeout on a license that is not inactivity-based is not used", () => {
    expect(contactTerms(claims({ isInactivityBased: false, inactivityTimeout: "PT10M" }), lease, AT)).toEqual(
      { seatHeldUntil: lease, nextCheckInDueAt: null },
    );
  });

  it("a checkInInterval sets the check-in, never past the seat hold", () => {
    expect(contactTerms(claims({ checkInInterval: "PT15M" }), lease, AT)).toEqual({
      seatHeldUntil: lease,
      nextCheckInDueAt: d("2026-01-01T00:15:00.000Z"),
    });
    expect(
      contactTerms(
        claims({ isInactivityBased: true, inactivityTimeout: "PT10M", checkInInterval: "PT20M" }),
        lease,
        AT,
      ),
    ).toEqual({
      seatHeldUntil: d("2026-01-01T00:10:00.000Z"),
      nextCheckInDueAt: d("2026-01-01T00:10:00.000Z"),
    });
    expect(
      contactTerms(
        claims({ isInactivityBased: true, inactivityTimeout: "PT10M", checkInInterval: "PT2M" }),
        lease,
        AT,
      ),
    ).toEqual({
      seatHeldUntil: d("2026-01-01T00:10:00.000Z"),
      nextCheckInDueAt: d("2026-01-01T00:02:00.000Z"),
    });
  });
});
