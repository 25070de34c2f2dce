import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, testDb, type TestTenant } from "../../helpers/api.ts";
import { ALL_PROVISION_SCOPES, activatedLicense } from "../../helpers/tenant-world.ts";
import { createTestDatabase, testPostgres } from "../../helpers/test-server.ts";
import { closeDb, createDb, type Db } from "../../../server/db/client.ts";
import { migrate } from "../../../server/db/migrate.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { createTenant } from "../../../server/domain/identity/create-tenant.ts";
import { createSubscription } from "../../../server/domain/webhooks/subscriptions/create-subscription.ts";
import { adminAccess } from "../../../server/domain/webhooks/subscriptions/subscription-access.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import { sweepRetention } from "../../../server/jobs/retention.ts";
import { now } from "../../../server/clock.ts";

const DAY = 86_400_000;
const days = { webhooks: 30, endedSessions: 400, audit: 365 };

let tenant: TestTenant;
let token: string;

/** A tenant and a capture subscription in `base`, with an envelope writer for them. */
async function envelopeWriter(base: Db) {
  const { tenantId } = await createTenant(base, { name: "Retention envelopes" });
  const ctx = systemContext(base, tenantId, "retention-test");
  const subscription = await createSubscription(ctx, adminAccess, {
    displayName: "Capture",
    targetKind: "Capture",
    eventTypePatterns: ["*"],
  });
  const db = tenantDb(base, tenantId);
  /**
   * An envelope `ageDays` old with one delivery in `status` and one attempt. Written directly: no
   * API makes a month-old envelope (tests never wait).
   */
  return async function envelope(ageDays: number, status: string, fannedOut = true) {
    const at = new Date(now().getTime() - ageDays * DAY);
    const id = randomUUID();
    await db.webhookEnvelope.create({
      data: {
        id,
        tenantId,
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
        tenantId,
        envelopeId: id,
        subscriptionId: subscription.id,
        eventType: "Entitlement.Activated",
        entityId: randomUUID(),
        status,
        createdAt: at,
      },
    });
    await db.webhookDeliveryAttempt.create({
      data: { tenantId, deliveryId: delivery.id, attemptNumber: 1, status: "failed", startedAt: at },
    });
    return id;
  };
}

beforeAll(async () => {
  tenant = await createTestTenant("Retention");
  token = await tenant.token(ALL_PROVISION_SCOPES);
});

describe("retention sweep", () => {
  it("deletes expired webhook envelopes that are fanned out and have nothing pending, with their deliveries and attempts, in bounded batches", async () => {
    // A database of its own: the webhook dispatchers of the files running beside this one fan out
    // every envelope left unfanned in the shared database, and an unfanned one is a case kept here.
    const server = await testPostgres();
    const database = await createTestDatabase(server.adminUrl, "lic_retention");
    const base = createDb(database.url, { max: 2 });
    try {
      await migrate(database.url);
      const envelope = await envelopeWriter(base);
      const oldDone = [
        await envelope(31, "delivered"),
        await envelope(40, "dead"),
        await envelope(45, "captured"),
      ];
      const oldPending = await envelope(35, "pending");
      const notFannedOut = await envelope(35, "delivered", false);
      const recent = await envelope(5, "delivered");

      // Batches of 2 with at most 1 batch per kind: the first run takes 2, the next the last one.
      const first = await sweepRetention(base, now(), { batchSize: 2, maxBatches: 1, days });
      expect(first).toEqual({ webhookEnvelopes: 2, endedSessions: 0, auditEvents: 0, batches: 3 });
      const second = await sweepRetention(base, now(), { batchSize: 2, maxBatches: 5, days });
      expect(second).toEqual({ webhookEnvelopes: 1, endedSessions: 0, auditEvents: 0, batches: 3 });

      const envelopes = new Set(
        (await base.webhookEnvelope.findMany({ select: { id: true } })).map((e) => e.id),
      );
      for (const id of oldDone) expect(envelopes.has(id), id).toBe(false);
      for (const id of [oldPending, notFannedOut, recent]) expect(envelopes.has(id), id).toBe(true);
      expect(await base.webhookDelivery.count({ where: { envelopeId: { in: oldDone } } })).toBe(0);
      expect(
        await base.webhookDeliveryAttempt.count({ where: { delivery: { envelopeId: { in: oldDone } } } }),
      ).toBe(0);
      expect(await base.webhookDeliveryAttempt.count({ where: { delivery: { envelopeId: recent } } })).toBe(
        1,
      );
    } finally {
      await closeDb(base);
      await database.drop();
      await server.stop();
    }
  });

  it("deletes sessions ended longer ago than the session period and audit rows older than the audit period, in bounded batches, and keeps the rest", async () => {
    const db = tenantDb(testDb(), tenant.tenantId);
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

    // Batches of 2 with at most 1 batch per kind; the shared database may hold other files' old
    // rows too, hence "at least" after the first run.
    const first = await sweepRetention(testDb(), now(), { batchSize: 2, maxBatches: 1, days });
    expect(first.auditEvents).toBe(2);
    const second = await sweepRetention(testDb(), now(), { batchSize: 2, maxBatches: 5, days });
    expect(first.auditEvents + second.auditEvents).toBeGreaterThanOrEqual(3);

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
