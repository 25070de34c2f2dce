import { randomUUID } from "node:crypto";
import { quickAddJob, type Runner } from "graphile-worker";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { testDatabaseUrl } from "../../helpers/db.ts";
import {
  eventually,
  startReceiver,
  startWorker,
  stopWorker,
  verifyDelivery,
  type Receiver,
} from "../../helpers/webhooks.ts";
import {
  activeSubscription,
  captureSubscription,
  deleteAllSubscriptions,
  emit,
  eventsFor,
  INT_SUBS,
  SUBS,
} from "../../helpers/webhook-fixtures.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import { emitEvent } from "../../../server/domain/webhooks/events/emit-event.ts";
import { findEventType } from "../../../server/domain/webhooks/events/event-types.ts";

/** Captured deliveries are kept 7 days (or the 1,000 most recent per subscription). */
const SEVEN_DAYS = 7 * 24 * 3_600_000;

describe("webhook replay and capture subscriptions", () => {
  let tenant: TestTenant;
  let admin: string;
  let runner: Runner;
  let receiver: Receiver;

  const captured = async (subscriptionId: string, pageSize = 100) =>
    (await request("GET", `${SUBS}/${subscriptionId}/captured-events?pageSize=${pageSize}`, { token: admin }))
      .body as {
      totalCount: number;
      items: {
        deliveryId: string;
        envelope: {
          id: string;
          type: string;
          entityid: string;
          replayof?: string;
          data: Record<string, unknown>;
        };
      }[];
    };
  const capturedCount = async (subscriptionId: string) => (await captured(subscriptionId, 0)).totalCount;

  beforeAll(async () => {
    tenant = await createTestTenant("Webhook replay");
    admin = await tenant.token("provision.webhook.*");
    receiver = await startReceiver();
    runner = await startWorker();
  });
  afterEach(() => deleteAllSubscriptions(tenant.tenantId));
  afterAll(async () => {
    await stopWorker(runner);
    await receiver?.close();
  });

  it("replay re-sends only envelopes that went to that subscription, each with a fresh id naming the original in the replayof extension attribute", async () => {
    const a = await activeSubscription(receiver, admin, {
      eventTypePatterns: ["User.Created", "User.Deleted"],
    });
    const b = await activeSubscription(receiver, admin, { eventTypePatterns: ["Organization.Created"] });
    const from = new Date(Date.now() - 1000).toISOString();
    const u1 = await emit(tenant, "User.Created", { id: randomUUID() }, { entityId: "user-1" });
    const u2 = await emit(tenant, "User.Deleted", {}, { entityId: "user-2" });
    const o1 = await emit(tenant, "Organization.Created");
    await eventually(() => eventsFor(receiver, a.id).length === 2 && eventsFor(receiver, b.id).length === 1);
    const to = new Date(Date.now() + 1000).toISOString();

    const replay = await request("POST", `${SUBS}/${a.id}/replay`, { token: admin, body: { from, to } });
    expect(replay.status, replay.text).toBe(202);
    expect(replay.body.replayedCount).toBe(2);
    expect(replay.body.replays.map((r: { originalEnvelopeId: string }) => r.originalEnvelopeId)).toEqual([
      u1.id,
      u2.id,
    ]);
    const sent = await eventually(() =>
      eventsFor(receiver, a.id).length === 4 ? eventsFor(receiver, a.id).slice(2) : undefined,
    );
    for (const request of sent) {
      const event = verifyDelivery(request, a.secret);
      const original = event.replayof === u1.id ? u1 : u2;
      expect(event.replayof).toBe(original.id);
      expect(event.id).not.toBe(original.id);
      expect(replay.body.replays).toContainEqual({ originalEnvelopeId: original.id, envelopeId: event.id });
      expect(event).toMatchObject({
        type: original.type,
        time: original.time,
        entityid: original.entityid,
        subject: original.subject,
      });
      expect(event.data).toEqual(original.data);
    }
    expect(eventsFor(receiver, b.id)).toHaveLength(1); // B got nothing again

    // Narrowed by eventType and entityId; a window skips replays themselves.
    const narrowed = await request("POST", `${SUBS}/${a.id}/replay`, {
      token: admin,
      body: { from, to: new Date(Date.now() + 1000).toISOString(), eventType: "User.Deleted" },
    });
    expect(narrowed.body.replays).toEqual([{ originalEnvelopeId: u2.id, envelopeId: expect.any(String) }]);
    const byEntity = await request("POST", `${SUBS}/${a.id}/replay`, {
      token: admin,
      body: { from, to: new Date(Date.now() + 1000).toISOString(), entityId: "user-1" },
    });
    expect(byEntity.body.replays.map((r: { originalEnvelopeId: string }) => r.originalEnvelopeId)).toEqual([
      u1.id,
    ]);
    // By ids: an envelope that never went to this subscription is not re-sent; a replay names the first original.
    const replayedId = replay.body.replays[0].envelopeId;
    const byIds = await request("POST", `${SUBS}/${a.id}/replay`, {
      token: admin,
      body: { envelopeIds: [o1.id, replayedId] },
    });
    expect(byIds.body.replayedCount).toBe(1);
    const again = await eventually(() =>
      eventsFor(receiver, a.id).find((r) => r.headers["webhook-id"] === byIds.body.replays[0].envelopeId),
    );
    expect(JSON.parse(again.body).replayof).toBe(u1.id);
  });

  it("replay selection must be envelopeIds or a from/to window, never both and never neither (400 replay.invalid_selection)", async () => {
    const sub = await captureSubscription(admin);
    const now = new Date().toISOString();
    for (const body of [
      {},
      { envelopeIds: [randomUUID()], from: now, to: now },
      { from: now },
      { to: now },
      { envelopeIds: [] },
      { from: now, to: "2000-01-01T00:00:00Z" },
      { eventType: "User.Created" },
    ]) {
      expectProblem(
        await request("POST", `${SUBS}/${sub}/replay`, { token: admin, body }),
        400,
        "replay.invalid_selection",
      );
    }
    expectProblem(
      await request("POST", `${SUBS}/${sub}/replay`, { token: admin, body: { envelopeIds: ["not-a-uuid"] } }),
      400,
      "license.validation_error",
    );
    const pending = await request("POST", SUBS, {
      token: admin,
      body: { displayName: "p", url: receiver.url, eventTypePatterns: ["*"] },
    });
    expectProblem(
      await request("POST", `${SUBS}/${pending.body.id}/replay`, {
        token: admin,
        body: { envelopeIds: [randomUUID()] },
      }),
      409,
      "subscription.invalid_state",
    );
  });

  it("replay ceiling: 200 envelopes per hour per integration, counted in PostgreSQL; beyond it 429 replay.rate_limited", async () => {
    const integrator = await tenant.token("webhooks.integrator");
    const sub = await activeSubscription(
      receiver,
      integrator,
      { eventTypePatterns: ["User.Deleted"] },
      { base: INT_SUBS },
    );
    const definition = findEventType("User.Deleted")!;
    const envelopes = await tenantDb(testDb(), tenant.tenantId).$transaction(
      async (tx) => {
        const out = [];
        for (let i = 0; i < 201; i++) {
          out.push(
            await emitEvent(tx, {
              tenantId: tenant.tenantId,
              type: "User.Deleted",
              entityKind: "user",
              entityId: `bulk-${i}`,
              subject: "users/bulk",
              data: definition.sample.data,
            }),
          );
        }
        return out;
      },
      { timeout: 60_000 },
    );
    await eventually(() => eventsFor(receiver, sub.id).length >= 201, 60_000, "201 deliveries");
    const ids = envelopes.map((e) => e.id);
    const replay = (envelopeIds: string[], token = integrator) =>
      request("POST", `${INT_SUBS}/${sub.id}/replay`, { token, body: { envelopeIds } });

    expect((await replay(ids.slice(0, 150))).body.replayedCount).toBe(150);
    const over = await replay(ids.slice(150, 201));
    expectProblem(over, 429, "replay.rate_limited");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(3000);
    expect((await replay(ids.slice(150, 200))).body.replayedCount).toBe(50);
    expectProblem(await replay(ids.slice(200)), 429, "replay.rate_limited");
    // Another integration has its own ceiling.
    const other = await tenant.token("webhooks.integrator");
    expectProblem(await replay(ids.slice(200), other), 404, "license.not_found"); // not its subscription
    const adminReplay = await request("POST", `${SUBS}/${sub.id}/replay`, {
      token: admin,
      body: { envelopeIds: ids.slice(200) },
    });
    expect(adminReplay.status).toBe(202);
    // A window selecting more than the ceiling at once is refused too.
    const wide = await request("POST", `${SUBS}/${sub.id}/replay`, {
      token: admin,
      body: { from: "2000-01-01T00:00:00Z", to: new Date(Date.now() + 60_000).toISOString() },
    });
    expectProblem(wide, 429, "replay.rate_limited");
  }, 120_000);

  it("capture subscriptions record every matching event as captured, send nothing, and show test-fires in the viewer", async () => {
    const sub = await captureSubscription(admin, { eventTypePatterns: ["Entitlement.DeviceBlocked"] });
    const fired = await request("POST", `${SUBS}/${sub}/test-fire`, { token: admin, body: {} });
    expect(fired.status).toBe(202);
    const event = await emit(tenant, "Entitlement.DeviceBlocked");
    await emit(tenant, "Entitlement.DeviceUnblocked");
    await eventually(async () => (await capturedCount(sub)) === 2);
    const view = await captured(sub);
    expect(view.items.map((i) => i.envelope.id).sort()).toEqual([fired.body.envelopeId, event.id].sort());
    expect(view.items.find((i) => i.envelope.id === fired.body.envelopeId)!.envelope.data._test).toBe(true);
    const deliveries = await request("GET", `/api/v1/webhooks/deliveries?filter=subscriptionId==${sub}`, {
      token: admin,
    });
    expect(
      deliveries.body.items.map((d: { status: string; attemptCount: number }) => [d.status, d.attemptCount]),
    ).toEqual([
      ["captured", 0],
      ["captured", 0],
    ]);
    expectProblem(
      await request("GET", `${SUBS}/${(await activeSubscription(receiver, admin)).id}/captured-events`, {
        token: admin,
      }),
      400,
      "subscription.not_applicable",
    );
  });

  it("filters decide what a subscription receives: entity kind, severity and attributeEquality with docs/api.md's matching rules", async () => {
    const byEquality = await captureSubscription(admin, {
      eventTypePatterns: ["Entitlement.DeviceReset", "Entitlement.PlanChangeReviewed"],
      filters: { attributeEquality: { "billing.provider": "stripe", transferCount: "3" } },
    });
    const byBoolean = await captureSubscription(admin, {
      eventTypePatterns: ["Entitlement.PlanChangeReviewed"],
      filters: { attributeEquality: { approved: "false" } },
    });
    const byKind = await captureSubscription(admin, {
      eventTypePatterns: ["*"],
      filters: { entityKinds: ["monitored-asset"] },
    });
    const bySeverity = await captureSubscription(admin, {
      eventTypePatterns: ["*"],
      filters: { severities: ["Critical"] },
    });
    const byNumber = await captureSubscription(admin, {
      eventTypePatterns: ["MeteredUsage.OverageStatusChanged"],
      filters: { attributeEquality: { usage: "0.25" } },
    });
    const catchAll = await captureSubscription(admin, { eventTypePatterns: ["*"] });

    const hit = await emit(
      tenant,
      "Entitlement.DeviceReset",
      { transferCount: 3 },
      { entityId: "reset-hit" },
    );
    await emit(tenant, "Entitlement.DeviceReset", { transferCount: 30 }, { entityId: "reset-other-number" });
    await emit(
      tenant,
      "Entitlement.DeviceReset",
      { transferCount: 3, billing: { provider: "Stripe" } },
      { entityId: "reset-case" },
    );
    await emit(
      tenant,
      "Entitlement.DeviceReset",
      { transferCount: 3, billing: {} },
      { entityId: "reset-missing" },
    );
    const rejected = await emit(
      tenant,
      "Entitlement.PlanChangeReviewed",
      { approved: false },
      { entityId: "review-rejected" },
    );
    await emit(tenant, "Entitlement.PlanChangeReviewed", { approved: true }, { entityId: "review-approved" });
    const critical = await emit(
      tenant,
      "MeteredUsage.OverageStatusChanged",
      { severity: "Critical", usage: 0.25 },
      { entityId: "overage-critical" },
    );
    const warning = await emit(
      tenant,
      "MeteredUsage.OverageStatusChanged",
      { severity: "Warning", usage: 1000 },
      { entityId: "overage-warning" },
    );
    await emit(tenant, "User.Created", {}, { entityId: "user-any" });
    // Every fan-out has run once the unfiltered catch-all has captured all nine events.
    await eventually(async () => (await capturedCount(catchAll)) === 9);

    const ids = async (sub: string) => (await captured(sub)).items.map((i) => i.envelope.entityid).sort();
    expect(await ids(byEquality)).toEqual([hit.entityid]);
    expect(await ids(byBoolean)).toEqual([rejected.entityid]);
    expect(await ids(byKind)).toEqual([critical.entityid, warning.entityid].sort());
    expect(await ids(bySeverity)).toEqual([critical.entityid]);
    expect(await ids(byNumber)).toEqual([critical.entityid]);
  });

  it("capture retention: 7 days or the 1,000 most recent per capture subscription, whichever first, enforced by the worker job", async () => {
    const big = await captureSubscription(admin);
    const small = await captureSubscription(admin);
    const now = Date.now();
    // Captures days old, and more than a thousand: only time and that many events produce them.
    const seed = async (subscriptionId: string, ages: number[]) => {
      const rows = ages.map((ageMs, i) => ({ id: randomUUID(), at: new Date(now - ageMs), i }));
      await testDb().webhookEnvelope.createMany({
        data: rows.map((r) => ({
          id: r.id,
          tenantId: tenant.tenantId,
          type: "User.Created",
          subject: "users/x",
          entityKind: "user",
          entityId: `seed-${r.i}`,
          eventVersion: 1,
          time: r.at,
          payload: "{}",
          createdAt: r.at,
          // Events whose fan-out already ran (the seeded deliveries below), so the dispatcher leaves them.
          fannedOutAt: r.at,
        })),
      });
      await testDb().webhookDelivery.createMany({
        data: rows.map((r) => ({
          tenantId: tenant.tenantId,
          envelopeId: r.id,
          subscriptionId,
          eventType: "User.Created",
          entityId: `seed-${r.i}`,
          status: "captured",
          createdAt: r.at,
          completedAt: r.at,
        })),
      });
      return rows;
    };
    const bigRows = await seed(
      big,
      Array.from({ length: 1010 }, (_, i) => i * 1000),
    ); // 1,010 recent ones, one a second
    const smallRows = await seed(small, [60_000, SEVEN_DAYS - 60_000, SEVEN_DAYS + 60_000, SEVEN_DAYS * 2]);

    const job = await quickAddJob({ connectionString: testDatabaseUrl() }, "webhook_capture_retention", {});
    await eventually(
      async () =>
        (
          await testDb().$queryRaw<
            { n: number }[]
          >`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE id = ${job.id}::bigint`
        )[0].n === 0,
    );

    const keptBig = await testDb().webhookDelivery.findMany({
      where: { subscriptionId: big },
      select: { envelopeId: true },
    });
    expect(keptBig).toHaveLength(1000);
    expect(new Set(keptBig.map((d) => d.envelopeId))).toEqual(
      new Set(bigRows.slice(0, 1000).map((r) => r.id)),
    );
    const keptSmall = await testDb().webhookDelivery.findMany({
      where: { subscriptionId: small },
      select: { envelopeId: true },
    });
    expect(new Set(keptSmall.map((d) => d.envelopeId))).toEqual(
      new Set(smallRows.slice(0, 2).map((r) => r.id)),
    );
  });
});
