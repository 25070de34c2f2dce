import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { sweepExpiredLeases } from "../../../server/domain/licensing/sessions/sweep-expired-leases.ts";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { activated, activateJwt, licensedEntitlement, sessionCall } from "../../helpers/runtime.ts";

/**
 * Seat counting (docs/decisions.md "Seat counting"): triggers keep each license's count of
 * unrevoked sessions (EntitlementSessionCount), and an activation counts held seats only when that
 * count reaches the seat count. The count must follow every way a session starts, ends or goes.
 */
const OP = "/api/v1/provision/operational";
const fp = () => `fp-${randomUUID()}`;

describe("seat counting: the unrevoked-session count behind activation's capacity check", () => {
  let tenant: TestTenant;
  let deviceToken: string;

  beforeAll(async () => {
    tenant = await createTestTenant("Seat count");
    deviceToken = await tenant.token("provision.device.*");
  });

  /** The kept count and the true one, for a license. */
  const counts = async (entitlementId: string) => {
    const kept = await testDb().entitlementSessionCount.findUnique({ where: { entitlementId } });
    const actual = await testDb().licenseSession.count({ where: { entitlementId, revokedAt: null } });
    return { kept: kept?.unrevoked ?? 0, actual };
  };

  /** Moves a session's lease (and seat) into the past; its grace ends `graceLeftMs` from now. */
  const leaseRanOut = (sessionId: string, graceLeftMs: number) =>
    testDb().licenseSession.update({
      where: { id: sessionId },
      data: {
        leaseExpiresAt: new Date(Date.now() - 1000),
        seatHeldUntil: new Date(Date.now() - 1000),
        graceExpiresAt: new Date(Date.now() + graceLeftMs),
      },
    });

  it("follows activation, re-activation, release, reset, block, expiry at activation, the sweeper and deletion", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, {
      claimBasedActivation: { numberOfSeats: 10 },
    });
    const expectKept = async (n: number) =>
      expect(await counts(entitlement.id)).toEqual({ kept: n, actual: n });

    const first = fp();
    const a = await activated({ activationCode: code, fingerprint: first });
    const b = await activated({ activationCode: code, fingerprint: fp() });
    const c = await activated({ activationCode: code, fingerprint: fp() });
    await expectKept(3);
    // The same device again: its session, not a second one.
    expect((await activated({ activationCode: code, fingerprint: first })).sessionId).toBe(a.sessionId);
    await expectKept(3);

    expect((await sessionCall("release", b.sessionId, b.token)).status).toBe(200);
    await expectKept(2);
    // Released twice: refused, and counted once.
    expectProblem(await sessionCall("release", b.sessionId, b.token), 409, "license.no_active_session");
    await expectKept(2);

    // Past its grace, a session ends when its device activates again (the facts statement ends it).
    await leaseRanOut(a.sessionId, -1000);
    const a2 = await activated({ activationCode: code, fingerprint: first });
    expect(a2.sessionId).not.toBe(a.sessionId);
    await expectKept(2);

    // The sweeper ends sessions past their grace.
    await leaseRanOut(c.sessionId, -1000);
    await sweepExpiredLeases(testDb());
    await expectKept(1);

    const blocked = fp();
    await activated({ activationCode: code, fingerprint: blocked });
    await expectKept(2);
    const block = await request("POST", `${OP}/entitlements/${entitlement.id}/devices/block`, {
      token: deviceToken,
      body: { fingerprint: blocked },
    });
    expect(block.status, block.text).toBe(200);
    await expectKept(1);
    const reset = await request("POST", `${OP}/entitlements/${entitlement.id}/devices/reset`, {
      token: deviceToken,
    });
    expect(reset.status, reset.text).toBe(200);
    await expectKept(0);

    // Sessions deleted with their device (a cascade) leave the count too.
    const d = await activated({ activationCode: code, fingerprint: fp() });
    await expectKept(1);
    const session = await testDb().licenseSession.findUniqueOrThrow({ where: { id: d.sessionId } });
    await testDb().device.delete({ where: { id: session.deviceId } });
    await expectKept(0);
  });

  it("below the seat count the kept count proves a seat is free; at it, held seats are counted (an expired lease holds none)", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, {
      claimBasedActivation: { numberOfSeats: 2 },
    });
    const a = await activated({ activationCode: code, fingerprint: fp() });
    // a's lease ran out within its grace: unrevoked (counted in the bound) but holding no seat.
    await leaseRanOut(a.sessionId, 3600_000);
    await activated({ activationCode: code, fingerprint: fp() });
    expect(await counts(entitlement.id)).toEqual({ kept: 2, actual: 2 });
    // The bound (2) reached the seat count (2): the seats are counted, and only one is held.
    await activated({ activationCode: code, fingerprint: fp() });
    expect(await counts(entitlement.id)).toEqual({ kept: 3, actual: 3 });
    expectProblem(
      await activateJwt({ activationCode: code, fingerprint: fp() }),
      409,
      "license.no_seat_available",
    );
    expect(await counts(entitlement.id)).toEqual({ kept: 3, actual: 3 });
  });

  it("20 parallel activations on a 20-seat license: 20 sessions, 20 counted", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, {
      claimBasedActivation: { numberOfSeats: 20 },
    });
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => activateJwt({ activationCode: code, fingerprint: fp() })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(20);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(5);
    expect(await counts(entitlement.id)).toEqual({ kept: 20, actual: 20 });
  });
});
