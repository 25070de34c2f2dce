import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import {
  fingerprintHash,
  makeCustomerUser,
  makeOrganization,
  signedInConsumer,
} from "../../helpers/licensing-fixtures.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import type { DomainContext } from "../../../server/domain/context.ts";
import { getSeatUtilization } from "../../../server/domain/licensing/sessions/seat-utilization.ts";
import { listConsumerLicenses } from "../../../server/domain/entitlements/consumer/list-consumer-licenses.ts";
import { activated, licensedEntitlement, sessionCall } from "../../helpers/runtime.ts";

const ADMIN = "/api/v1/provision/admin/sessions/activations";
const ME = "/api/v1/provision/consumer/me/sessions";
const q = (params: Record<string, string | number>) =>
  `?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()}`;

describe("sessions: admin read model and the signed-in user's sessions", () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let token: string;
  let otherToken: string;

  const list = async (params: Record<string, string | number> = {}, path = ADMIN, bearer = token) => {
    const res = await request("GET", `${path}${q(params)}`, { token: bearer });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const one = async (sessionId: string) => (await list({ filter: `id==${sessionId}` })).items[0];
  const seatReleasedCount = (entitlementId: string) =>
    testDb().webhookEnvelope.count({
      where: { tenantId: tenant.tenantId, entityId: entitlementId, type: "Entitlement.SeatReleased" },
    });

  beforeAll(async () => {
    tenant = await createTestTenant("Sessions");
    other = await createTestTenant("Sessions other");
    token = await tenant.token("provision.session.read");
    otherToken = await other.token("provision.session.read");
  });

  it("the read model: every field, the fingerprint only as its hash, computed isActive", async () => {
    const validFrom = new Date(Date.now() - 86_400_000);
    const { entitlement, code, codeId } = await licensedEntitlement(tenant, {
      isEntitlementTrial: true,
      notValidBeforeDateTime: validFrom,
      // processId is kept for concurrent (floating) licensing only.
      claimBasedActivation: { isFloatingLicense: true },
    });
    const fingerprint = `fp-${randomUUID()}`;
    const { sessionId } = await activated({
      activationCode: code,
      fingerprint,
      deviceName: "Build agent",
      processId: "4242",
    });

    const res = await request("GET", `${ADMIN}${q({ filter: `id==${sessionId}` })}`, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.text).not.toContain(fingerprint);
    expect(res.body).toMatchObject({
      pageNumber: 1,
      pageSize: 20,
      totalCount: 1,
      totalPages: 1,
      hasNextPage: false,
      hasPreviousPage: false,
    });
    const s = res.body.items[0];
    expect(s).toEqual({
      id: sessionId,
      entitlementId: entitlement.id,
      entitlementName: entitlement.name,
      deviceId: expect.any(String),
      deviceFingerprintHash: fingerprintHash(fingerprint),
      deviceName: "Build agent",
      processId: "4242",
      activationCodeId: codeId,
      productIds: [],
      activatedAt: expect.any(String),
      leaseExpiresAt: expect.any(String),
      graceExpiresAt: expect.any(String),
      seatHeldUntil: expect.any(String),
      validFrom: validFrom.toISOString(),
      validUntil: null,
      isTrial: true,
      lastContactAt: expect.any(String),
      revokedAt: null,
      revocationReason: "None",
      isAnonymousTry: false,
      activationKind: "Online",
      activatedByUserId: null,
      isActive: true,
    });
    const lease = Date.parse(s.leaseExpiresAt) - Date.parse(s.activatedAt);
    expect(lease).toBeGreaterThan(3500_000);
    expect(lease).toBeLessThanOrEqual(3600_000);
    expect(Date.parse(s.graceExpiresAt) - Date.parse(s.leaseExpiresAt)).toBe(86_400_000);
    expect(s.seatHeldUntil).toBe(s.leaseExpiresAt);
    expect(
      (
        await list({ filter: `processId==4242,deviceFingerprintHash==${fingerprintHash(fingerprint)}` })
      ).items.map((i: { id: string }) => i.id),
    ).toEqual([sessionId]);
  });

  it("revocationReason after a release (Released) and after a device reset (DeviceReset); isActive false", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant);
    const released = await activated({ activationCode: code, fingerprint: `fp-${randomUUID()}` });
    expect((await sessionCall("release", released.sessionId, released.token)).status).toBe(200);
    expect(await one(released.sessionId)).toMatchObject({
      revocationReason: "Released",
      revokedAt: expect.any(String),
      isActive: false,
    });

    const reset = await activated({ activationCode: code, fingerprint: `fp-${randomUUID()}` });
    const deviceToken = await tenant.token("provision.device.*");
    const res = await request(
      "POST",
      `/api/v1/provision/operational/entitlements/${entitlement.id}/devices/reset`,
      { token: deviceToken },
    );
    expect(res.status, res.text).toBe(200);
    expect(await one(reset.sessionId)).toMatchObject({
      revocationReason: "DeviceReset",
      revokedAt: expect.any(String),
      isActive: false,
    });
  });

  it("isAnonymousTry is derived from the entitlement", async () => {
    const { code } = await licensedEntitlement(tenant, { isAnonymousTry: true });
    const { sessionId } = await activated({ activationCode: code, fingerprint: `fp-${randomUUID()}` });
    expect(await one(sessionId)).toMatchObject({ isAnonymousTry: true, isTrial: false });
  });

  it("filter, sort and paging over whitelisted fields; isActive is translated into the stored fields", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant);
    const names = ["Charlie", "Alpha", "Bravo"];
    const ids: Record<string, string> = {};
    const tokens: Record<string, string> = {};
    for (const deviceName of names) {
      const s = await activated({ activationCode: code, fingerprint: `fp-${randomUUID()}`, deviceName });
      ids[deviceName] = s.sessionId;
      tokens[deviceName] = s.token;
    }
    expect((await sessionCall("release", ids.Bravo, tokens.Bravo)).status).toBe(200);

    const page1 = await list({
      filter: `entitlementId==${entitlement.id}`,
      sortOrder: "deviceName",
      pageSize: 2,
    });
    expect(page1).toMatchObject({
      totalCount: 3,
      totalPages: 2,
      hasNextPage: true,
      hasPreviousPage: false,
      pageSize: 2,
    });
    expect(page1.items.map((s: { deviceName: string }) => s.deviceName)).toEqual(["Alpha", "Bravo"]);
    const page2 = await list({
      filter: `entitlementId==${entitlement.id}`,
      sortOrder: "deviceName",
      pageSize: 2,
      pageNumber: 2,
    });
    expect(page2).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(page2.items.map((s: { deviceName: string }) => s.deviceName)).toEqual(["Charlie"]);

    const desc = await list({ filter: `entitlementId==${entitlement.id}`, sortOrder: "-deviceName" });
    expect(desc.items.map((s: { deviceName: string }) => s.deviceName)).toEqual([
      "Charlie",
      "Bravo",
      "Alpha",
    ]);

    const active = await list({
      filter: `entitlementId==${entitlement.id},isActive==true`,
      sortOrder: "deviceName",
    });
    expect(active.items.map((s: { id: string }) => s.id)).toEqual([ids.Alpha, ids.Charlie]);
    const ended = await list({ filter: `entitlementId==${entitlement.id},isActive==false` });
    expect(ended.items.map((s: { id: string }) => s.id)).toEqual([ids.Bravo]);
    const notActive = await list({ filter: `entitlementId==${entitlement.id},isActive!=true` });
    expect(notActive.items.map((s: { id: string }) => s.id)).toEqual([ids.Bravo]);

    const releasedOnly = await list({
      filter: `entitlementId==${entitlement.id},revocationReason==Released`,
    });
    expect(releasedOnly.items.map((s: { id: string }) => s.id)).toEqual([ids.Bravo]);
    const contains = await list({ filter: `entitlementId==${entitlement.id},deviceName@=*arl` });
    expect(contains.items.map((s: { id: string }) => s.id)).toEqual([ids.Charlie]);
    const since = await list({
      filter: `entitlementId==${entitlement.id},activatedAt>=${new Date(Date.now() - 60_000).toISOString()},activationKind==Online`,
    });
    expect(since.totalCount).toBe(3);
    const byLease = await list({
      filter: `entitlementId==${entitlement.id}`,
      sortOrder: "-leaseExpiresAt,lastContactAt",
    });
    expect(byLease.totalCount).toBe(3);
  });

  it("a non-whitelisted or unparsable filter or sortOrder is 400 license.validation_error", async () => {
    const cases: Record<string, string>[] = [
      { filter: "fingerprint==abc" },
      { filter: "entitlementName==x" },
      { filter: "isActive==maybe" },
      { filter: "revocationReason==Stolen" },
      { filter: "deviceName" },
      { sortOrder: "isActive" },
      { sortOrder: "entitlementName" },
    ];
    for (const params of cases) {
      expectProblem(await request("GET", `${ADMIN}${q(params)}`, { token }), 400, "license.validation_error");
    }
  });

  it("every whitelisted field filters and sorts; odd input is a 4xx, never a 500", async () => {
    const ok: Record<string, string>[] = [
      {
        filter:
          "activationCodeId==null,validUntil==null,revokedAt==null,lastContactAt!=null,activatedByUserId==null",
      },
      { filter: "deviceFingerprintHash_=ab|cd,processId!=null,deviceName!@=*zzz" },
      {
        filter: `deviceId==${randomUUID()}|${randomUUID()}`,
        sortOrder: "deviceFingerprintHash,-seatHeldUntil,graceExpiresAt,revokedAt,validUntil",
      },
      {
        filter: "isActive==true|false",
        sortOrder:
          "entitlementId,deviceId,activationCodeId,activationKind,activatedByUserId,revocationReason,processId",
      },
      { filter: "revocationReason==*released", pageSize: "1000" },
    ];
    for (const params of ok)
      expect((await request("GET", `${ADMIN}${q(params)}`, { token })).status, JSON.stringify(params)).toBe(
        200,
      );
    const bad: Record<string, string>[] = [
      { filter: "isActive==null" },
      { filter: "activatedAt>=yesterday" },
      { filter: "deviceId==not-a-uuid" },
      { filter: "activatedAt@=2026" },
      { sortOrder: "id" },
      { sortOrder: "deviceName,-deviceName" },
      { pageSize: "ten" },
      { pageNumber: "0" },
    ];
    for (const params of bad)
      expectProblem(await request("GET", `${ADMIN}${q(params)}`, { token }), 400, "license.validation_error");
  });

  it("scopes: provision.session.read passes, another resource's scope is 403, no token 401", async () => {
    expectProblem(await request("GET", ADMIN), 401, "auth.unauthenticated");
    expectProblem(
      await request("GET", ADMIN, { token: await tenant.token("provision.device.read") }),
      403,
      "auth.insufficient_scope",
    );
    expect((await request("GET", ADMIN, { token: await tenant.token("provision.session.*") })).status).toBe(
      200,
    );
    const consumer = await signedInConsumer(tenant);
    const byUser = `${ADMIN}/by-user/${consumer.customer.id}`;
    expectProblem(await request("GET", byUser), 401, "auth.unauthenticated");
    expectProblem(
      await request("GET", byUser, { token: await tenant.token("provision.customer.read") }),
      403,
      "auth.insufficient_scope",
    );
    expectProblem(await request("GET", byUser, { token: consumer.token }), 401, "auth.unauthenticated");
    expect((await request("GET", byUser, { token })).status).toBe(200);
  });

  it("isActive follows the validity window: a license whose start moved ahead is not active, in the field and the filter", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant);
    const { sessionId } = await activated({ activationCode: code, fingerprint: `fp-${randomUUID()}` });
    expect(await one(sessionId)).toMatchObject({ isActive: true });
    const start = new Date(Date.now() + 86_400_000);
    await testDb().entitlement.update({
      where: { id: entitlement.id },
      data: { notValidBeforeDateTime: start },
    });

    expect(await one(sessionId)).toMatchObject({
      isActive: false,
      validFrom: start.toISOString(),
      revokedAt: null,
    });
    expect((await list({ filter: `entitlementId==${entitlement.id},isActive==true` })).totalCount).toBe(0);
    expect(
      (await list({ filter: `entitlementId==${entitlement.id},isActive==false` })).items.map(
        (s: { id: string }) => s.id,
      ),
    ).toEqual([sessionId]);
  });

  it("by-user: sessions on entitlements assigned directly or through an organization, and those the user's login activated", async () => {
    const consumer = await signedInConsumer(tenant);
    const organization = await makeOrganization(tenant, { memberIds: [consumer.customer.id] });

    const direct = await licensedEntitlement(tenant, {
      customerId: consumer.customer.id,
      customerKind: "User",
    });
    const viaOrganization = await licensedEntitlement(tenant, {
      customerId: organization.id,
      customerKind: "Organization",
    });
    const interactive = await licensedEntitlement(tenant, {
      customerId: consumer.customer.id,
      customerKind: "User",
    });
    const unrelated = await licensedEntitlement(tenant);

    const a = await activated({ activationCode: direct.code, fingerprint: `fp-${randomUUID()}` });
    const b = await activated({ activationCode: viaOrganization.code, fingerprint: `fp-${randomUUID()}` });
    const c = await activated(
      { activationCode: interactive.code, fingerprint: `fp-${randomUUID()}`, useInteractiveUser: true },
      { authorization: `Bearer ${consumer.token}` },
    );
    await activated({ activationCode: unrelated.code, fingerprint: `fp-${randomUUID()}` });
    // The license moves to another customer: the session the user's login activated stays theirs.
    const someoneElse = await makeCustomerUser(tenant, { email: "else@example.com" });
    await testDb().entitlement.update({
      where: { id: interactive.entitlement.id },
      data: { customerId: someoneElse.id },
    });

    const page = await list({ sortOrder: "activatedAt" }, `${ADMIN}/by-user/${consumer.customer.id}`);
    expect(page.items.map((s: { id: string }) => s.id)).toEqual([a.sessionId, b.sessionId, c.sessionId]);
    expect(page.items[2]).toMatchObject({
      activatedByUserId: consumer.user.id,
      entitlementId: interactive.entitlement.id,
    });
    expect(page.items[0].activatedByUserId).toBeNull();

    const filtered = await list(
      { filter: `entitlementId==${viaOrganization.entitlement.id}` },
      `${ADMIN}/by-user/${consumer.customer.id}`,
    );
    expect(filtered.items.map((s: { id: string }) => s.id)).toEqual([b.sessionId]);
    expect(
      (await list({}, `${ADMIN}/by-user/${someoneElse.id}`)).items.map((s: { id: string }) => s.id),
    ).toEqual([c.sessionId]);

    expectProblem(
      await request("GET", `${ADMIN}/by-user/${randomUUID()}`, { token }),
      404,
      "license.not_found",
    );
    expectProblem(await request("GET", `${ADMIN}/by-user/not-a-uuid`, { token }), 404, "license.not_found");
    expectProblem(
      await request("GET", `${ADMIN}/by-user/${consumer.customer.id}?filter=nope==1`, { token }),
      400,
      "license.validation_error",
    );
  });

  it("does not leak sessions or customer users of another tenant", async () => {
    const consumer = await signedInConsumer(tenant);
    const { code } = await licensedEntitlement(tenant, {
      customerId: consumer.customer.id,
      customerKind: "User",
    });
    const { sessionId } = await activated({ activationCode: code, fingerprint: `fp-${randomUUID()}` });

    expect((await list({ filter: `id==${sessionId}` }, ADMIN, otherToken)).totalCount).toBe(0);
    const all = await list({ pageSize: 100 }, ADMIN, otherToken);
    expect(all.items.map((s: { id: string }) => s.id)).not.toContain(sessionId);
    expectProblem(
      await request("GET", `${ADMIN}/by-user/${consumer.customer.id}`, { token: otherToken }),
      404,
      "license.not_found",
    );

    const stranger = await signedInConsumer(other);
    expect((await list({}, ME, stranger.token)).totalCount).toBe(0);
    expectProblem(
      await request("POST", `${ME}/${sessionId}/release`, { token: stranger.token }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("GET", `${ME}/${sessionId}/plans`, { token: stranger.token }),
      404,
      "license.not_found",
    );
  });

  it("consumer: lists the user's active sessions only (direct, via organization, activated by them), not another user's", async () => {
    const me = await signedInConsumer(tenant);
    const organization = await makeOrganization(tenant, { memberIds: [me.customer.id] });
    const someoneElse = await signedInConsumer(tenant);
    const mine = await licensedEntitlement(tenant, { customerId: me.customer.id, customerKind: "User" });
    const ours = await licensedEntitlement(tenant, {
      customerId: organization.id,
      customerKind: "Organization",
    });
    const theirs = await licensedEntitlement(tenant, {
      customerId: someoneElse.customer.id,
      customerKind: "User",
    });

    const a = await activated({
      activationCode: mine.code,
      fingerprint: `fp-${randomUUID()}`,
      deviceName: "Laptop",
    });
    const b = await activated({
      activationCode: ours.code,
      fingerprint: `fp-${randomUUID()}`,
      deviceName: "Desktop",
    });
    const ended = await activated({ activationCode: mine.code, fingerprint: `fp-${randomUUID()}` });
    expect((await sessionCall("release", ended.sessionId, ended.token)).status).toBe(200);
    const t = await activated({ activationCode: theirs.code, fingerprint: `fp-${randomUUID()}` });

    const page = await list({ sortOrder: "deviceName" }, ME, me.token);
    expect(page.items.map((s: { id: string }) => s.id)).toEqual([b.sessionId, a.sessionId]);
    expect(page.items[1]).toMatchObject({
      entitlementId: mine.entitlement.id,
      entitlementName: mine.entitlement.name,
      deviceName: "Laptop",
      isActive: true,
      leaseExpiresAt: expect.any(String),
    });
    expect(page.items[1]).not.toHaveProperty("deviceFingerprintHash");
    expect(page.items[1]).not.toHaveProperty("activatedByUserId");
    expect((await list({}, ME, someoneElse.token)).items.map((s: { id: string }) => s.id)).toEqual([
      t.sessionId,
    ]);
    expect(
      (await list({ filter: `entitlementId==${ours.entitlement.id}` }, ME, me.token)).items.map(
        (s: { id: string }) => s.id,
      ),
    ).toEqual([b.sessionId]);
    expectProblem(
      await request("GET", `${ME}?filter=revocationReason==Released`, { token: me.token }),
      400,
      "license.validation_error",
    );

    expectProblem(await request("GET", ME), 401, "auth.unauthenticated");
    expectProblem(await request("GET", ME, { token }), 401, "auth.unauthenticated");
  });

  it("consumer: the plans behind a session are its license's plans", async () => {
    const me = await signedInConsumer(tenant);
    const { entitlement, code } = await licensedEntitlement(tenant, {
      customerId: me.customer.id,
      customerKind: "User",
      planName: "PRO",
    });
    const { sessionId } = await activated({ activationCode: code, fingerprint: `fp-${randomUUID()}` });

    const res = await request("GET", `${ME}/${sessionId}/plans`, { token: me.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      entitlementId: entitlement.id,
      planName: "PRO",
      plans: [],
      pendingPlanChangeRequest: null,
    });
    const byEntitlement = await request(
      "GET",
      `/api/v1/provision/consumer/me/entitlements/${entitlement.id}/plans`,
      { token: me.token },
    );
    expect(res.body).toEqual(byEntitlement.body);

    const stranger = await signedInConsumer(tenant);
    expectProblem(
      await request("GET", `${ME}/${sessionId}/plans`, { token: stranger.token }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("GET", `${ME}/${randomUUID()}/plans`, { token: me.token }),
      404,
      "license.not_found",
    );
  });

  it("consumer: releasing an own session frees the seat and emits Entitlement.SeatReleased; twice is 409; another user's is 404", async () => {
    const me = await signedInConsumer(tenant);
    const { entitlement, code } = await licensedEntitlement(tenant, {
      customerId: me.customer.id,
      customerKind: "User",
      claimBasedActivation: { numberOfSeats: 1 },
    });
    const { sessionId, token: licenseToken } = await activated({
      activationCode: code,
      fingerprint: `fp-${randomUUID()}`,
    });
    const before = await seatReleasedCount(entitlement.id);

    const stranger = await signedInConsumer(tenant);
    expectProblem(
      await request("POST", `${ME}/${sessionId}/release`, { token: stranger.token }),
      404,
      "license.not_found",
    );
    expect(await seatReleasedCount(entitlement.id)).toBe(before);

    const res = await request("POST", `${ME}/${sessionId}/release`, { token: me.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ sessionId, entitlementId: entitlement.id, state: "Released" });
    expect(await seatReleasedCount(entitlement.id)).toBe(before + 1);
    expect(await one(sessionId)).toMatchObject({ revocationReason: "Released", isActive: false });
    expect((await list({}, ME, me.token)).items.map((s: { id: string }) => s.id)).not.toContain(sessionId);

    expectProblem(
      await request("POST", `${ME}/${sessionId}/release`, { token: me.token }),
      409,
      "license.no_active_session",
    );
    expectProblem(await sessionCall("renew", sessionId, licenseToken), 409, "license.no_active_session");
    expect(await seatReleasedCount(entitlement.id)).toBe(before + 1);
    // The one seat is free again.
    await activated({ activationCode: code, fingerprint: `fp-${randomUUID()}` });

    expectProblem(
      await request("POST", `${ME}/${randomUUID()}/release`, { token: me.token }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", `${ME}/not-a-uuid/release`, { token: me.token }),
      404,
      "license.not_found",
    );
    expectProblem(await request("POST", `${ME}/${sessionId}/release`), 401, "auth.unauthenticated");
  });

  it("seat utilization: seats in use vs numberOfSeats now, and the peak per bucket over the last 24 h", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, {
      claimBasedActivation: { numberOfSeats: 3 },
    });
    const a = await activated({ activationCode: code, fingerprint: `fp-${randomUUID()}` });
    await activated({ activationCode: code, fingerprint: `fp-${randomUUID()}` });
    expect((await sessionCall("release", a.sessionId, a.token)).status).toBe(200);

    const ctx: DomainContext = {
      tenantId: tenant.tenantId,
      actor: { kind: "user", id: randomUUID() },
      db: tenantDb(testDb(), tenant.tenantId),
    };
    const result = await getSeatUtilization(ctx, entitlement.id, "24h");
    expect(result).toMatchObject({
      entitlementId: entitlement.id,
      entitlementName: entitlement.name,
      numberOfSeats: 3,
      seatsInUse: 1,
    });
    expect(result.buckets).toHaveLength(48);
    expect(Date.parse(result.to) - Date.parse(result.from)).toBe(24 * 3600_000);
    expect(result.buckets.at(-1)!.peakSeats).toBe(2);
    expect(result.buckets.slice(0, -2).every((b) => b.peakSeats === 0)).toBe(true);
    expect((await getSeatUtilization(ctx, entitlement.id, "7d")).buckets).toHaveLength(84);

    const otherCtx: DomainContext = {
      ...ctx,
      tenantId: other.tenantId,
      db: tenantDb(testDb(), other.tenantId),
    };
    await expect(getSeatUtilization(otherCtx, entitlement.id, "24h")).rejects.toMatchObject({
      codeName: "license.not_found",
    });
  });

  it("portal licenses: the user's entitlements (direct and via organization) with seats in use", async () => {
    const me = await signedInConsumer(tenant);
    const organization = await makeOrganization(tenant, { memberIds: [me.customer.id] });
    const mine = await licensedEntitlement(tenant, {
      name: "A license",
      customerId: me.customer.id,
      customerKind: "User",
      planName: "PRO",
    });
    const ours = await licensedEntitlement(tenant, {
      name: "B license",
      customerId: organization.id,
      customerKind: "Organization",
    });
    await licensedEntitlement(tenant);
    await activated({ activationCode: mine.code, fingerprint: `fp-${randomUUID()}` });

    const ctx: DomainContext = {
      tenantId: tenant.tenantId,
      actor: { kind: "user", id: me.user.id },
      db: tenantDb(testDb(), tenant.tenantId),
    };
    const licenses = await listConsumerLicenses(ctx);
    expect(licenses.map((l) => l.entitlementId)).toEqual([mine.entitlement.id, ours.entitlement.id]);
    expect(licenses[0]).toMatchObject({
      name: "A license",
      planName: "PRO",
      numberOfSeats: 5,
      seatsInUse: 1,
    });
    expect(licenses[1]).toMatchObject({ seatsInUse: 0 });
  });
});
