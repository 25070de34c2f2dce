import { randomUUID } from "node:crypto";
import type { Runner } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { eventually, startWorker, stopWorker } from "../../helpers/webhooks.ts";
import { captureSubscription, SUBS } from "../../helpers/webhook-fixtures.ts";
import {
  fingerprintHash,
  insertEntitlement,
  insertSession,
  makeCustomerUser,
} from "../../helpers/licensing-fixtures.ts";
import { catalogFixture } from "../../helpers/catalog-pricing.ts";
import { applyBillingProviderEvent } from "../../../server/domain/entitlements/billing/billing.ts";
import { systemContext } from "../../../server/domain/context.ts";

const OP = "/api/v1/provision/operational/entitlements";
type Captured = { type: string; entityid: string; data: Record<string, unknown> };

describe("devices: reset, block, unblock", () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let token: string;
  let codeToken: string;
  let webhookToken: string;
  let otherToken: string;
  let runner: Runner;
  let captureId: string;

  /** Sessions are made by activation (tests/helpers/licensing-fixtures.ts): its events are not these tests' subject. */
  const ACTIVATION_EVENTS = ["Entitlement.Activated", "Entitlement.SeatActivated"];
  /** Every event the capture subscription recorded about one entitlement (but activation's), oldest first. */
  const eventsOf = async (entitlementId: string): Promise<Captured[]> => {
    const res = await request("GET", `${SUBS}/${captureId}/captured-events?pageSize=100`, {
      token: webhookToken,
    });
    expect(res.status, res.text).toBe(200);
    return (res.body.items as { envelope: Captured }[])
      .map((i) => i.envelope)
      .filter((e) => e.entityid === entitlementId && !ACTIVATION_EVENTS.includes(e.type))
      .reverse();
  };
  const waitForEvents = (entitlementId: string, count: number) =>
    eventually(
      async () => {
        const events = await eventsOf(entitlementId);
        return events.length >= count ? events : undefined;
      },
      15_000,
      `${count} events`,
    );
  /** Envelopes written for an entitlement (the outbox), to prove that nothing was emitted. */
  const envelopeCount = (entitlementId: string) =>
    testDb().webhookEnvelope.count({ where: { tenantId: tenant.tenantId, entityId: entitlementId } });

  beforeAll(async () => {
    tenant = await createTestTenant("Devices");
    other = await createTestTenant("Devices other");
    token = await tenant.token("provision.device.*");
    codeToken = await tenant.token("provision.activation-code.*");
    webhookToken = await tenant.token("provision.webhook.*");
    otherToken = await other.token("provision.device.*");
    captureId = await captureSubscription(webhookToken);
    runner = await startWorker();
  });
  afterAll(async () => stopWorker(runner));

  it("reset: every session ends, seats free, codes' device usage empties, transferCount + 1, one DeviceReset (total transferCount) and one SeatReleased per session", async () => {
    const { id: productId } = await catalogFixture(tenant).product();
    const entitlement = await insertEntitlement(tenant, { productIds: [productId] });
    await testDb().entitlement.update({
      where: { id: entitlement.id },
      data: { transferCount: 2, reference: "PO-7", planName: "PRO" },
    });
    const code = (
      await request("POST", `${OP}/${entitlement.id}/activation-codes`, {
        token: codeToken,
        body: { deviceLimit: 2 },
      })
    ).body.codes[0];
    const a = await insertSession(tenant, entitlement.id, {
      fingerprint: "machine-a",
      activationCodeId: code.id,
    });
    const b = await insertSession(tenant, entitlement.id, {
      fingerprint: "machine-b",
      activationCodeId: code.id,
    });
    const codesBefore = await request(
      "GET",
      `/api/v1/provision/operational/activation-codes?filter=id==${code.id}`,
      { token: codeToken },
    );
    expect(codesBefore.body.items[0].devicesInUse).toBe(2);

    const res = await request("POST", `${OP}/${entitlement.id}/devices/reset`, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      entitlementId: entitlement.id,
      devicesReset: 2,
      transferCount: 3,
      error: null,
    });

    const sessions = await testDb().licenseSession.findMany({ where: { entitlementId: entitlement.id } });
    expect(sessions.every((s) => s.revokedAt !== null && s.revocationReason === "DeviceReset")).toBe(true);
    const codesAfter = await request(
      "GET",
      `/api/v1/provision/operational/activation-codes?filter=id==${code.id}`,
      { token: codeToken },
    );
    expect(codesAfter.body.items[0].devicesInUse).toBe(0);

    const events = await waitForEvents(entitlement.id, 4);
    const resets = events.filter((e) => e.type === "Entitlement.DeviceReset");
    const released = events.filter((e) => e.type === "Entitlement.SeatReleased");
    expect(resets.map((e) => e.data.sessionId).sort()).toEqual([a.session.id, b.session.id].sort());
    expect(released.map((e) => e.data.sessionId).sort()).toEqual([a.session.id, b.session.id].sort());
    for (const e of resets)
      expect(e.data).toMatchObject({
        transferCount: 3,
        entitlementId: entitlement.id,
        reference: "PO-7",
        planCode: "PRO",
        resetAtUtc: expect.any(String),
      });
    const resetA = resets.find((e) => e.data.sessionId === a.session.id)!;
    expect(resetA.data).toMatchObject({
      deviceFingerprintHash: fingerprintHash("machine-a"),
      productIds: [productId],
    });
    expect(JSON.stringify(events)).not.toContain("machine-a");
    expect(JSON.stringify(events)).not.toContain("Test machine");
  });

  it("a reset with no active session still counts a transfer and emits nothing", async () => {
    const entitlement = await insertEntitlement(tenant);
    const res = await request("POST", `${OP}/${entitlement.id}/devices/reset`, { token });
    expect(res.body).toEqual({
      entitlementId: entitlement.id,
      devicesReset: 0,
      transferCount: 1,
      error: null,
    });
    expect(await envelopeCount(entitlement.id)).toBe(0);
  });

  it("reset answers 404 for unknown and foreign entitlements, 401 without a token, 403 with a wrong scope", async () => {
    const entitlement = await insertEntitlement(tenant);
    expectProblem(
      await request("POST", `${OP}/${randomUUID()}/devices/reset`, { token }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", `${OP}/${entitlement.id}/devices/reset`, { token: otherToken }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", `${OP}/${entitlement.id}/devices/reset`, {}),
      401,
      "auth.unauthenticated",
    );
    expectProblem(
      await request("POST", `${OP}/${entitlement.id}/devices/reset`, { token: codeToken }),
      403,
      "auth.insufficient_scope",
    );
    expect(
      (await testDb().entitlement.findUniqueOrThrow({ where: { id: entitlement.id } })).transferCount,
    ).toBe(0);
  });

  it("bulk reset: one result per id, error set for unknown, foreign or malformed ids", async () => {
    const a = await insertEntitlement(tenant);
    const b = await insertEntitlement(tenant);
    await insertSession(tenant, a.id);
    const foreign = await insertEntitlement(other);
    const unknown = randomUUID();
    const res = await request("POST", `${OP}/devices/reset`, {
      token,
      body: { entitlementIds: [a.id, unknown, b.id, foreign.id, "not-an-id"] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([
      { entitlementId: a.id, devicesReset: 1, transferCount: 1, error: null },
      {
        entitlementId: unknown,
        devicesReset: 0,
        transferCount: 0,
        error: expect.stringMatching(/not found/),
      },
      { entitlementId: b.id, devicesReset: 0, transferCount: 1, error: null },
      {
        entitlementId: foreign.id,
        devicesReset: 0,
        transferCount: 0,
        error: expect.stringMatching(/not found/),
      },
      {
        entitlementId: "not-an-id",
        devicesReset: 0,
        transferCount: 0,
        error: expect.stringMatching(/not found/),
      },
    ]);
    expect((await testDb().entitlement.findUniqueOrThrow({ where: { id: foreign.id } })).transferCount).toBe(
      0,
    );
    expectProblem(
      await request("POST", `${OP}/devices/reset`, { token, body: { entitlementIds: [] } }),
      400,
      "license.validation_error",
    );
  });

  it("a retried reset with the same Idempotency-Key counts one transfer and returns the original result", async () => {
    const entitlement = await insertEntitlement(tenant);
    await insertSession(tenant, entitlement.id);
    const key = `reset-${randomUUID()}`;
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        request("POST", `${OP}/${entitlement.id}/devices/reset`, {
          token,
          headers: { "idempotency-key": key },
        }),
      ),
    );
    for (const r of results)
      expect(r.body).toEqual({
        entitlementId: entitlement.id,
        devicesReset: 1,
        transferCount: 1,
        error: null,
      });
    expect(
      (await testDb().entitlement.findUniqueOrThrow({ where: { id: entitlement.id } })).transferCount,
    ).toBe(1);
    expect(
      await testDb().webhookEnvelope.count({
        where: { entityId: entitlement.id, type: "Entitlement.DeviceReset" },
      }),
    ).toBe(1);
  });

  it("block: ends the device's activations (not others'), emits DeviceBlocked and SeatReleased; blocking again emits nothing", async () => {
    const customer = await makeCustomerUser(tenant, { externalReference: "crm-77" });
    const entitlement = await insertEntitlement(tenant, {
      customerId: customer.id,
      billing: { provider: "stripe" },
    });
    // The provider's subscription reference arrives with a connector's report (the connector's API).
    await applyBillingProviderEvent(
      systemContext(testDb(), tenant.tenantId, "test"),
      entitlement.id,
      "stripe",
      {
        state: "active",
        providerSubscriptionReference: `sub_${randomUUID()}`,
      },
    );
    const a = await insertSession(tenant, entitlement.id, { fingerprint: "blocked-machine" });
    const other = await insertSession(tenant, entitlement.id, { fingerprint: "innocent-machine" });
    const res = await request("POST", `${OP}/${entitlement.id}/devices/block`, {
      token,
      body: { fingerprint: "blocked-machine" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: a.device.id,
      isBlocked: true,
      blockedAt: expect.any(String),
      activeSessionCount: 0,
      deviceFingerprintHash: fingerprintHash("blocked-machine"),
    });
    const sessions = await testDb().licenseSession.findMany({ where: { entitlementId: entitlement.id } });
    expect(sessions.find((s) => s.id === a.session.id)).toMatchObject({
      revocationReason: "DeviceBlocked",
      revokedAt: expect.any(Date),
    });
    expect(sessions.find((s) => s.id === other.session.id)).toMatchObject({
      revocationReason: "None",
      revokedAt: null,
    });
    expect(
      (await testDb().entitlement.findUniqueOrThrow({ where: { id: entitlement.id } })).transferCount,
    ).toBe(0);

    const events = await waitForEvents(entitlement.id, 2);
    expect(events.map((e) => e.type).sort()).toEqual([
      "Entitlement.DeviceBlocked",
      "Entitlement.SeatReleased",
    ]);
    expect(events.find((e) => e.type === "Entitlement.DeviceBlocked")!.data).toMatchObject({
      entitlementId: entitlement.id,
      deviceId: a.device.id,
      deviceFingerprintHash: fingerprintHash("blocked-machine"),
      blockedAtUtc: expect.any(String),
      customerId: customer.id,
      customerExternalReference: "crm-77",
      billing: { provider: "stripe", providerSubscriptionReference: expect.stringMatching(/^sub_/) },
    });
    expect(events.find((e) => e.type === "Entitlement.SeatReleased")!.data).toMatchObject({
      sessionId: a.session.id,
      releasedAtUtc: expect.any(String),
    });

    const before = await envelopeCount(entitlement.id);
    const again = await request("POST", `${OP}/${entitlement.id}/devices/block`, {
      token,
      body: { deviceId: a.device.id },
    });
    expect(again.status).toBe(200);
    expect(again.body.blockedAt).toBe(res.body.blockedAt);
    expect(await envelopeCount(entitlement.id)).toBe(before);
  });

  it("block by a fingerprint never seen records the device blocked in advance", async () => {
    const entitlement = await insertEntitlement(tenant);
    const res = await request("POST", `${OP}/${entitlement.id}/devices/block`, {
      token,
      body: { fingerprint: "future-machine" },
    });
    expect(res.body).toMatchObject({
      isBlocked: true,
      activeSessionCount: 0,
      deviceFingerprintHash: fingerprintHash("future-machine"),
    });
    const list = await request("GET", `/api/v1/provision/admin/entitlements/${entitlement.id}/devices`, {
      token,
    });
    expect(list.body.items.map((d: { id: string }) => d.id)).toEqual([res.body.id]);
  });

  it("unblock emits DeviceUnblocked; ended activations do not return; unblocking an unblocked device emits nothing", async () => {
    const entitlement = await insertEntitlement(tenant);
    const a = await insertSession(tenant, entitlement.id, { fingerprint: "m-1" });
    await request("POST", `${OP}/${entitlement.id}/devices/block`, {
      token,
      body: { deviceId: a.device.id },
    });
    const res = await request("POST", `${OP}/${entitlement.id}/devices/${a.device.id}/unblock`, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      isBlocked: false,
      unblockedAt: expect.any(String),
      activeSessionCount: 0,
    });
    const events = await waitForEvents(entitlement.id, 3);
    expect(events.find((e) => e.type === "Entitlement.DeviceUnblocked")!.data).toMatchObject({
      deviceId: a.device.id,
      deviceFingerprintHash: fingerprintHash("m-1"),
      unblockedAtUtc: expect.any(String),
    });
    const before = await envelopeCount(entitlement.id);
    const again = await request("POST", `${OP}/${entitlement.id}/devices/${a.device.id}/unblock`, { token });
    expect(again.status).toBe(200);
    expect(await envelopeCount(entitlement.id)).toBe(before);
  });

  it("block/unblock validation, 404 for unknown/foreign devices, 403 with a read-only scope", async () => {
    const entitlement = await insertEntitlement(tenant);
    const elsewhere = await insertEntitlement(tenant);
    const a = await insertSession(tenant, elsewhere.id);
    expectProblem(
      await request("POST", `${OP}/${entitlement.id}/devices/block`, { token, body: {} }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("POST", `${OP}/${entitlement.id}/devices/block`, {
        token,
        body: { fingerprint: "x", deviceId: a.device.id },
      }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("POST", `${OP}/${entitlement.id}/devices/block`, {
        token,
        body: { deviceId: a.device.id },
      }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", `${OP}/${entitlement.id}/devices/${a.device.id}/unblock`, { token }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", `${OP}/${elsewhere.id}/devices/block`, {
        token: otherToken,
        body: { deviceId: a.device.id },
      }),
      404,
      "license.not_found",
    );
    const readOnly = await tenant.token("provision.device.read");
    expectProblem(
      await request("POST", `${OP}/${elsewhere.id}/devices/block`, {
        token: readOnly,
        body: { deviceId: a.device.id },
      }),
      403,
      "auth.insufficient_scope",
    );
  });

  it("GET /admin/entitlements/{id}/devices lists devices with their unrevoked sessions; foreign entitlement 404", async () => {
    // A floating license: one device runs a session per process.
    const entitlement = await insertEntitlement(tenant, {
      claimBasedActivation: { isFloatingLicense: true },
    });
    const a = await insertSession(tenant, entitlement.id, { fingerprint: "list-a", processId: "1" });
    await insertSession(tenant, entitlement.id, { fingerprint: "list-a", processId: "2" });
    await insertSession(tenant, entitlement.id, { fingerprint: "list-b" });
    const res = await request(
      "GET",
      `/api/v1/provision/admin/entitlements/${entitlement.id}/devices?sortOrder=createdAt`,
      { token },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.totalCount).toBe(2);
    expect(res.body.items[0]).toMatchObject({ id: a.device.id, activeSessionCount: 2, isBlocked: false });
    expect(res.body.items[0].sessions[0]).toMatchObject({ revocationReason: "None", revokedAt: null });
    const filtered = await request(
      "GET",
      `/api/v1/provision/admin/entitlements/${entitlement.id}/devices?filter=isBlocked==true`,
      { token },
    );
    expect(filtered.body.totalCount).toBe(0);
    expectProblem(
      await request("GET", `/api/v1/provision/admin/entitlements/${entitlement.id}/devices`, {
        token: otherToken,
      }),
      404,
      "license.not_found",
    );
  });

  it("pre-registering a device and removing it emit nothing; a device with history keeps its record", async () => {
    const entitlement = await insertEntitlement(tenant);
    const created = await request("POST", `${OP}/${entitlement.id}/devices`, {
      token,
      body: { fingerprint: "pre-1", deviceName: "Line 3 PLC" },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({
      isPreRegistered: true,
      isBlocked: false,
      deviceName: "Line 3 PLC",
      deviceFingerprintHash: fingerprintHash("pre-1"),
      activeSessionCount: 0,
    });
    expect(JSON.stringify(created.body)).not.toContain('pre-1"');
    expect(await envelopeCount(entitlement.id)).toBe(0);
    const active = await insertSession(tenant, entitlement.id, { fingerprint: "pre-2" });
    const activationEvents = await envelopeCount(entitlement.id);
    const marked = await request("POST", `${OP}/${entitlement.id}/devices`, {
      token,
      body: { fingerprint: "pre-2" },
    });
    expect(marked.body).toMatchObject({ id: active.device.id, isPreRegistered: true, activeSessionCount: 1 });
    const listed = await request(
      "GET",
      `/api/v1/provision/admin/entitlements/${entitlement.id}/devices?filter=isPreRegistered==true`,
      { token },
    );
    expect(listed.body.totalCount).toBe(2);

    expect(
      (await request("DELETE", `${OP}/${entitlement.id}/devices/${created.body.id}`, { token })).status,
    ).toBe(204);
    expect(await testDb().device.findUnique({ where: { id: created.body.id } })).toBeNull();
    expect(
      (await request("DELETE", `${OP}/${entitlement.id}/devices/${active.device.id}`, { token })).status,
    ).toBe(204);
    expect(await testDb().device.findUniqueOrThrow({ where: { id: active.device.id } })).toMatchObject({
      isPreRegistered: false,
    });
    expectProblem(
      await request("DELETE", `${OP}/${entitlement.id}/devices/${active.device.id}`, { token }),
      404,
      "license.not_found",
    );
    expect(await envelopeCount(entitlement.id)).toBe(activationEvents);

    expectProblem(
      await request("POST", `${OP}/${entitlement.id}/devices`, { token, body: {} }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("POST", `${OP}/${entitlement.id}/devices`, {
        token: otherToken,
        body: { fingerprint: "x" },
      }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", `${OP}/${entitlement.id}/devices`, {
        token: codeToken,
        body: { fingerprint: "x" },
      }),
      403,
      "auth.insufficient_scope",
    );
  });
});
