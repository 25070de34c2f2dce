import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, testDb, type TestTenant } from "../../helpers/api.ts";
import { ALL_PROVISION_SCOPES, activatedLicense } from "../../helpers/tenant-world.ts";
import { captureSubscription } from "../../helpers/webhook-fixtures.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import { sweepRetention } from "../../../server/jobs/retention.ts";
import { now } from "../../../server/clock.ts";

const DAY = 86_400_000;
const days = { webhooks: 30, endedSessions: 400, audit: 365 };

let tenant: TestTenant;
let token: string;
let subscriptionId: string;

/**
 * An envelope `ageDays` old with one delivery in `status` and one attempt. Written directly: no API
 * makes a month-old envelope (tests never wait).
 */
async function envelope(ageDays: number, status: string, fannedOut = true) {
  const db = tenantDb(testDb(), tenant.tenantId);
  const at = new Date(now().getTime() - ageDays * DAY);
  const id = randomUUID();
  await db.webhookEnvelope.create({
    data: {
      id,
      tenantId: tenant.tenantId,
      type: "Entitlement.Activated",
      subject: "retention",
      entityKind: "entitlement",
      entityId: randomUUID(),
      eventVersion: 1,
      time: at,
      payload: "{}",
      createdAt: at,
      fannedOutAt: fannedOut ? at : null,
    },
  });
  const delivery = await db.webhookDelivery.create({
    data: {
      tenantId: tenant.tenantId,
      envelopeId: id,
      subscriptionId,
      eventType: "Entitlement.Activated",
      entityId: randomUUID(),
      status,
      createdAt: at,
    },
  });
  await db.webhookDeliveryAttempt.create({
    data: {
      tenantId: tenant.tenantId,
      deliveryId: delivery.id,
      attemptNumber: 1,
      status: "failed",
      startedAt: at,
    },
  });
  return id;
}

beforeAll(async () => {
  tenant = await createTestTenant("Retention");
  token = await tenant.token(ALL_PROVISION_SCOPES);
  subscriptionId = await captureSubscription(token);
});

describe("retention sweep", () => {
  it("deletes expired webhook envelopes with their deliveries and attempts, ended sessions and audit rows, in bounded batches, and keeps live ones", async () => {
    const db = tenantDb(testDb(), tenant.tenantId);
    const oldDone = [
      await envelope(31, "delivered"),
      await envelope(40, "dead"),
      await envelope(45, "captured"),
    ];
    const oldPending = await envelope(35, "pending");
    const notFannedOut = await envelope(35, "delivered", false);
    const recent = await envelope(5, "delivered");

    // Sessions: one ended 401 days ago, one ended yesterday, one still live.
    const ended = await activatedLicense(token);
    const endedRecently = await activatedLicense(token);
    const live = await activatedLicense(token);
    await db.licenseSession.update({
      where: { id: ended.session.sessionId },
      data: { revokedAt: new Date(now().getTime() - 401 * DAY), revocationReason: "Released" },
    });
    await db.licenseSession.update({
      where: { id: endedRecently.session.sessionId },
      data: { revokedAt: new Date(now().getTime() - DAY), revocationReason: "Released" },
    });

    // Audit rows: three a year and more old, two recent (written directly: no API writes the past).
    const audit = (ageDays: number) => ({
      tenantId: tenant.tenantId,
      occurredAt: new Date(now().getTime() - ageDays * DAY),
      actorKind: "system",
      actorId: "retention-test",
      source: "cli",
      operation: "test",
      action: "tag.updated",
      entityKind: "tag",
      entityId: randomUUID(),
    });
    await db.auditEvent.createMany({ data: [audit(366), audit(400), audit(700), audit(10), audit(364)] });

    // Batches of 2 with at most 1 batch per kind: the first run takes 2 of each, the next the rest.
    const first = await sweepRetention(testDb(), now(), { batchSize: 2, maxBatches: 1, days });
    expect(first.webhookEnvelopes).toBe(2);
    expect(first.auditEvents).toBe(2);
    expect(first.batches).toBe(3);
    const second = await sweepRetention(testDb(), now(), { batchSize: 2, maxBatches: 5, days });
    expect(first.webhookEnvelopes + second.webhookEnvelopes).toBeGreaterThanOrEqual(3);
    expect(first.auditEvents + second.auditEvents).toBeGreaterThanOrEqual(3);

    const envelopes = new Set((await db.webhookEnvelope.findMany({ select: { id: true } })).map((e) => e.id));
    for (const id of oldDone) expect(envelopes.has(id), id).toBe(false);
    for (const id of [oldPending, notFannedOut, recent]) expect(envelopes.has(id), id).toBe(true);
    expect(await db.webhookDelivery.count({ where: { envelopeId: { in: oldDone } } })).toBe(0);
    expect(
      await db.webhookDeliveryAttempt.count({ where: { delivery: { envelopeId: { in: oldDone } } } }),
    ).toBe(0);
    expect(await db.webhookDeliveryAttempt.count({ where: { delivery: { envelopeId: recent } } })).toBe(1);

    const sessions = new Set((await db.licenseSession.findMany({ select: { id: true } })).map((s) => s.id));
    expect(sessions.has(ended.session.sessionId)).toBe(false);
    expect(sessions.has(endedRecently.session.sessionId)).toBe(true);
    expect(sessions.has(live.session.sessionId)).toBe(true);

    const kept = await db.auditEvent.findMany({ where: { actorId: "retention-test" } });
    expect(kept.map((r) => Math.round((now().getTime() - r.occurredAt.getTime()) / DAY)).sort()).toEqual([
      10, 364,
    ]);

    const again = await sweepRetention(testDb(), now(), { batchSize: 2, maxBatches: 5, days });
    expect(again).toMatchObject({ endedSessions: 0, auditEvents: 0 });
  });
});
