import { Logger, runMigrations } from "graphile-worker";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../../server/db/client.ts";
import { migrate } from "../../../server/db/migrate.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import { systemContext, type DomainContext } from "../../../server/domain/context.ts";
import { createTenant } from "../../../server/domain/identity/create-tenant.ts";
import { dispatchEnvelopes } from "../../../server/domain/webhooks/events/fan-out.ts";
import { emitEvent, emitEvents } from "../../../server/domain/webhooks/events/emit-event.ts";
import { findEventType } from "../../../server/domain/webhooks/events/event-types.ts";
import { createSubscription } from "../../../server/domain/webhooks/subscriptions/create-subscription.ts";
import { adminAccess } from "../../../server/domain/webhooks/subscriptions/subscription-access.ts";
import { createTestDatabase, testPostgres } from "../../helpers/test-server.ts";

/**
 * docs/architecture.md section 7, the outbox without per-event jobs. Its own database, so no other test
 * file's worker drains these envelopes: the counts below are exact.
 */
describe("the outbox: hot transactions write envelopes only; dispatchers drain them", () => {
  let cleanup: () => Promise<void>;
  let url: string;
  let base: Db;
  let ctx: DomainContext;

  const definition = findEventType("User.Deleted")!;
  const input = (tenantId: string, i: number) => ({
    tenantId,
    type: definition.type,
    entityKind: definition.entityKind,
    entityId: `user-${i}`,
    subject: `users/user-${i}`,
    data: definition.sample.data,
  });
  const graphileJobs = async () =>
    (await base.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker.jobs`)[0].n;

  beforeAll(async () => {
    const server = await testPostgres();
    const database = await createTestDatabase(server.adminUrl, "lic_outbox");
    url = database.url;
    cleanup = async () => {
      await database.drop();
      await server.stop();
    };
    await migrate(url);
    await runMigrations({ connectionString: url, logger: new Logger(() => () => {}) }); // the job queue a worker would use
    base = createDb(url, { max: 8 });
    const tenant = await createTenant(base, { name: "Outbox" });
    ctx = systemContext(base, tenant.tenantId, "test");
    for (const name of ["a", "b", "c"])
      await createSubscription(ctx, adminAccess, {
        displayName: name,
        targetKind: "Capture",
        eventTypePatterns: ["*"],
      });
  });

  afterAll(async () => {
    await base?.$disconnect();
    await cleanup?.();
  });

  it("an event's transaction adds no job and sends no notification while no dispatcher sleeps", async () => {
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    const notifications: string[] = [];
    listener.on("notification", (n) => notifications.push(n.channel));
    await listener.query("LISTEN webhook_outbox");
    try {
      const jobsBefore = await graphileJobs();
      await tenantDb(base, ctx.tenantId).$transaction((tx) => emitEvent(tx, input(ctx.tenantId, 0)));
      await tenantDb(base, ctx.tenantId).$transaction((tx) =>
        emitEvents(tx, [input(ctx.tenantId, 1), input(ctx.tenantId, 2)]),
      );
      // A round trip on the listening connection delivers any notification committed before it.
      await listener.query("SELECT 1");
      expect(notifications).toEqual([]);
      expect(await graphileJobs()).toBe(jobsBefore);
      const unfanned = await base.webhookEnvelope.count({ where: { fannedOutAt: null } });
      expect(unfanned).toBe(3);
      expect((await dispatchEnvelopes(base)).envelopes).toBe(3);
    } finally {
      await listener.end();
    }
  });

  it("a sleeping dispatcher (holding the watch lock) is woken by one notification per transaction", async () => {
    const sleeper = new pg.Client({ connectionString: url });
    await sleeper.connect();
    const notifications: string[] = [];
    sleeper.on("notification", (n) => notifications.push(n.channel));
    await sleeper.query("LISTEN webhook_outbox");
    expect((await sleeper.query("SELECT pg_try_advisory_lock(7170001) AS ok")).rows[0].ok).toBe(true);
    try {
      await tenantDb(base, ctx.tenantId).$transaction(async (tx) => {
        await emitEvent(tx, input(ctx.tenantId, 10));
        await emitEvent(tx, input(ctx.tenantId, 11));
        await emitEvents(tx, [input(ctx.tenantId, 12), input(ctx.tenantId, 13)]);
      });
      await sleeper.query("SELECT 1");
      expect(notifications).toEqual(["webhook_outbox"]);
    } finally {
      await sleeper.end();
    }
    expect((await dispatchEnvelopes(base)).envelopes).toBe(4);
  });

  it("two workers draining at once never fan an envelope out twice", async () => {
    const events = 400;
    const tdb = tenantDb(base, ctx.tenantId);
    for (let i = 0; i < events; i += 100)
      await tdb.$transaction((tx) =>
        emitEvents(
          tx,
          Array.from({ length: 100 }, (_, j) => input(ctx.tenantId, 1000 + i + j)),
        ),
      );
    const drainers = [createDb(url, { max: 2 }), createDb(url, { max: 2 }), createDb(url, { max: 2 })];
    try {
      const totals = await Promise.all(
        drainers.map(async (db) => {
          let envelopes = 0;
          let deliveries = 0;
          for (;;) {
            const result = await dispatchEnvelopes(db, { batchSize: 25 });
            if (result.envelopes === 0) return { envelopes, deliveries };
            envelopes += result.envelopes;
            deliveries += result.deliveries;
          }
        }),
      );
      // Each envelope was claimed by exactly one drainer, and each of its deliveries written once.
      expect(totals.reduce((sum, t) => sum + t.envelopes, 0)).toBe(events);
      expect(totals.reduce((sum, t) => sum + t.deliveries, 0)).toBe(events * 3);
      // The work was shared: more than one drainer took envelopes.
      expect(totals.filter((t) => t.envelopes > 0).length).toBeGreaterThan(1);
      const perEnvelope = await base.$queryRaw<{ n: number; envelopes: number }[]>`
        SELECT n::int, count(*)::int AS envelopes FROM (
          SELECT e.id, count(d.id) AS n FROM "WebhookEnvelope" e
          LEFT JOIN "WebhookDelivery" d ON d."envelopeId" = e.id
          WHERE e."entityId" LIKE 'user-1%' AND length(e."entityId") = 9
          GROUP BY e.id) x
        GROUP BY n`;
      expect(perEnvelope).toEqual([{ n: 3, envelopes: events }]);
      expect(await base.webhookEnvelope.count({ where: { fannedOutAt: null } })).toBe(0);
    } finally {
      await Promise.all(drainers.map((db) => db.$disconnect()));
    }
  });
});
