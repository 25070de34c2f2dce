import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Entitlement } from "../../../db/generated/client.ts";
import type { TClaimBasedActivation } from "../../entitlements/entitlement/policies.schemas.ts";
import type { ActivationFacts } from "./activation-facts.ts";
import {
  activationRequestHash,
  isIdempotencyKeyTaken,
  keyReused,
  previousSession,
} from "./activation-idempotency.ts";
import { checkCapacity, checkEndOfLife } from "./check-capacity.ts";
import { ipAllowed } from "./ip-allowed.ts";

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

describe("activation steps 6-8: end of life, seats and the code's device limit", () => {
  it("end of life refuses only a device that never activated the license", () => {
    expect(refusal(() => checkEndOfLife(true, false))).toEqual({
      codeName: "license.product_end_of_life",
      message: "Every product of this license is past its end of life, and this device never activated it.",
    });
    expect(refusal(() => checkEndOfLife(true, true))).toBe("no error");
    expect(refusal(() => checkEndOfLife(false, false))).toBe("no error");
  });

  const claims = { numberOfSeats: 3 } as TClaimBasedActivation;
  const facts = (seatsHeld: number, codeHolders: string[] | null = null) =>
    ({ seatsHeld, codeHolders }) as ActivationFacts;

  it("a seat is free while fewer than numberOfSeats are held", () => {
    expect(refusal(() => checkCapacity(facts(2), claims, null, "d1"))).toBe("no error");
    expect(refusal(() => checkCapacity(facts(3), claims, null, "d1"))).toEqual({
      codeName: "license.no_seat_available",
      message: "All 3 seats of this license are in use.",
    });
    expect(refusal(() => checkCapacity(facts(4), claims, null, "d1"))).toEqual({
      codeName: "license.no_seat_available",
      message: "All 3 seats of this license are in use.",
    });
  });

  it("the code's device limit: a new device is refused once the code has that many holders", () => {
    expect(refusal(() => checkCapacity(facts(0, ["d1"]), claims, 2, "d2"))).toBe("no error");
    expect(refusal(() => checkCapacity(facts(0, ["d1", "d2"]), claims, 2, "d3"))).toEqual({
      codeName: "license.device_limit_reached",
      message: "The activation code admits 2 device(s) at once.",
    });
    expect(refusal(() => checkCapacity(facts(0, ["d1", "d2", "d3"]), claims, 2, "d4"))).toEqual({
      codeName: "license.device_limit_reached",
      message: "The activation code admits 2 device(s) at once.",
    });
  });

  it("a device that already holds the code is never refused by the device limit", () => {
    expect(refusal(() => checkCapacity(facts(0, ["d1", "d2"]), claims, 2, "d2"))).toBe("no error");
  });

  it("no holders read (null) counts as none; no limit admits any number", () => {
    expect(refusal(() => checkCapacity(facts(0, null), claims, 1, "d1"))).toBe("no error");
    expect(refusal(() => checkCapacity(facts(0, null), claims, 0, null))).toEqual({
      codeName: "license.device_limit_reached",
      message: "The activation code admits 0 device(s) at once.",
    });
    expect(refusal(() => checkCapacity(facts(0, ["d1", "d2", "d3"]), claims, null, "d9"))).toBe("no error");
  });

  it("a device not yet known (no id) is a new holder", () => {
    expect(refusal(() => checkCapacity(facts(0, ["x", "d2"]), claims, 2, null))).toEqual({
      codeName: "license.device_limit_reached",
      message: "The activation code admits 2 device(s) at once.",
    });
  });
});

describe("ipAllowed: activationPolicy.allowedIpCidr", () => {
  const ranges = ["10.0.0.0/8", "192.168.1.0/24", "2001:db8::/32"];

  it("an IPv4 address inside or outside the ranges", () => {
    expect(ipAllowed("10.20.30.40", ranges)).toBe(true);
    expect(ipAllowed("192.168.1.255", ranges)).toBe(true);
    expect(ipAllowed("192.168.2.1", ranges)).toBe(false);
    expect(ipAllowed("11.0.0.1", ranges)).toBe(false);
  });

  it("an IPv4-mapped IPv6 address counts as its IPv4 address", () => {
    expect(ipAllowed("::ffff:10.1.2.3", ranges)).toBe(true);
    expect(ipAllowed("::ffff:11.1.2.3", ranges)).toBe(false);
  });

  it("IPv6 addresses against IPv6 ranges", () => {
    expect(ipAllowed("2001:db8:1::5", ranges)).toBe(true);
    expect(ipAllowed("2001:db9::5", ranges)).toBe(false);
    expect(ipAllowed("::1", ["::1/128"])).toBe(true);
  });

  it("a caller address that is not an address is never allowed", () => {
    expect(ipAllowed("not-an-ip", ["0.0.0.0/0"])).toBe(false);
    expect(ipAllowed("", ["0.0.0.0/0"])).toBe(false);
    expect(ipAllowed("::ffff:not-an-ip", ["0.0.0.0/0", "::/0"])).toBe(false);
  });

  it("a malformed range is skipped, the others still apply", () => {
    expect(ipAllowed("10.0.0.1", ["bogus/8", "10.0.0.0/8"])).toBe(true);
    expect(ipAllowed("10.0.0.1", ["bogus/8"])).toBe(false);
  });

  it("no ranges, no address", () => {
    expect(ipAllowed("10.0.0.1", [])).toBe(false);
  });
});

describe("activation Idempotency-Key: one key names one request", () => {
  const request = {
    activationCode: "ABCD-EFGH",
    fingerprint: "fp-1",
    useInteractiveUser: false,
    productCode: "P1",
    processId: 42,
    components: { MachineName: "m" },
  };
  /** The canonical form, written out: kind, code, fingerprint, interactive user, product, process, components. */
  const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

  it("hashes the canonical list of the request's fields", () => {
    expect(activationRequestHash(request as never, "Online")).toBe(
      sha256('["Online","ABCD-EFGH","fp-1",false,"P1",42,{"MachineName":"m"}]'),
    );
    expect(activationRequestHash({ fingerprint: "fp-1" } as never, "Offline")).toBe(
      sha256('["Offline",null,"fp-1",false,null,null,null]'),
    );
    expect(activationRequestHash({ fingerprint: "fp-1", useInteractiveUser: true } as never, "Online")).toBe(
      sha256('["Online",null,"fp-1",true,null,null,null]'),
    );
  });

  const revoked = "2026-01-02T00:00:00.000Z";
  const row = (over: Record<string, unknown> = {}) => ({
    id: "s1",
    idempotencyRequestHash: "rh",
    activationCodeId: "c1",
    activatedByUserId: null,
    entitlementId: "e1",
    fingerprintHash: "fh",
    activatedAt: "2026-01-01T00:00:00.000Z",
    leaseExpiresAt: "2026-01-01T01:00:00.000Z",
    graceExpiresAt: "2026-01-02T01:00:00.000Z",
    seatHeldUntil: "2026-01-01T01:00:00.000Z",
    validUntil: null,
    lastContactAt: "2026-01-01T00:00:00.000Z",
    revokedAt: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    ...over,
  });
  const e = { id: "e1" } as Entitlement;
  const same = { hash: "fh", requestHash: "rh", userId: null, codeId: "c1" };

  it("the same request replays the session it made, its timestamps as dates and no fingerprint hash", () => {
    expect(previousSession(row(), e, same)).toEqual({
      id: "s1",
      idempotencyRequestHash: "rh",
      activationCodeId: "c1",
      activatedByUserId: null,
      entitlementId: "e1",
      activatedAt: new Date("2026-01-01T00:00:00.000Z"),
      leaseExpiresAt: new Date("2026-01-01T01:00:00.000Z"),
      graceExpiresAt: new Date("2026-01-02T01:00:00.000Z"),
      seatHeldUntil: new Date("2026-01-01T01:00:00.000Z"),
      validUntil: null,
      lastContactAt: new Date("2026-01-01T00:00:00.000Z"),
      revokedAt: null,
      createdAt: new Date("2026-01-01T00:00:00.000Z"),
      updatedAt: new Date("2026-01-01T00:00:00.000Z"),
    });
  });

  it.each([
    ["another request (hash)", row(), { ...same, requestHash: "other" }, e],
    ["another code", row(), { ...same, codeId: "c2" }, e],
    ["another signed-in user", row(), { ...same, userId: "u1" }, e],
    ["another fingerprint", row(), { ...same, hash: "other" }, e],
    ["another license", row(), same, { id: "e2" } as Entitlement],
  ])("%s with the same key → 409 idempotency.key_reused", (_, facts, request, entitlement) => {
    expect(refusal(() => previousSession(facts, entitlement, request))).toEqual({
      codeName: "idempotency.key_reused",
      message: "This Idempotency-Key was used for a different activation.",
    });
  });

  it("the same request after its session ended: no active session", () => {
    expect(refusal(() => previousSession(row({ revokedAt: revoked }), e, same))).toEqual({
      codeName: "license.no_active_session",
      message: "The session this Idempotency-Key created has ended; activate again with a new key.",
    });
  });

  it("keyReused is 409 idempotency.key_reused", () => {
    expect(keyReused().status).toBe(409);
  });

  it("a parallel use of one key is recognised by the unique constraint's name, wherever the driver puts it", () => {
    const name = "LicenseSession_tenantId_idempotencyKey_key";
    expect(isIdempotencyKeyTaken({ constraint: name })).toBe(true);
    expect(
      isIdempotencyKeyTaken({ message: `duplicate key value violates unique constraint "${name}"` }),
    ).toBe(true);
    expect(isIdempotencyKeyTaken({ code: "P2002", meta: { target: name } })).toBe(true);
    expect(isIdempotencyKeyTaken({ code: "23505", constraint: "Device_tenantId_key" })).toBe(false);
    expect(isIdempotencyKeyTaken({})).toBe(false);
    expect(isIdempotencyKeyTaken(null)).toBe(false);
    expect(isIdempotencyKeyTaken(name)).toBe(false);
  });
});
