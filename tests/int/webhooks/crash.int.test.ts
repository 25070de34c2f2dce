import { spawn, type ChildProcess } from "node:child_process";
import type { Runner } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../../server/db/client.ts";
import { migrate } from "../../../server/db/migrate.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import type { DomainContext } from "../../../server/domain/context.ts";
import { createTenant } from "../../../server/domain/identity/create-tenant.ts";
import { createSubscription } from "../../../server/domain/webhooks/subscriptions/create-subscription.ts";
import {
  emitEvent,
  prepareEnvelope,
  storeEnvelope,
} from "../../../server/domain/webhooks/events/emit-event.ts";
import { DELIVERY_LEASE_MS } from "../../../server/domain/webhooks/delivery/settings.ts";
import { adminAccess } from "../../../server/domain/webhooks/subscriptions/subscription-access.ts";
import { sweepDeliveries } from "../../../server/domain/webhooks/delivery/sweep-deliveries.ts";
import { verifySubscription } from "../../../server/domain/webhooks/subscriptions/verify-subscription.ts";
import { useProcessDatabase } from "../../helpers/db.ts";
import { createTestDatabase, repoRoot, testPostgres, TEST_APP_SECRET } from "../../helpers/test-server.ts";
import {
  challengeAnswerer,
  eventually,
  startReceiver,
  startWorker,
  verifyDelivery,
  type Receiver,
} from "../../helpers/webhooks.ts";

/**
 * "A worker killed mid-delivery loses nothing": a worker process takes the delivery and is killed
 * with SIGKILL while the receiver holds the request open; the sweeper takes the attempt back once
 * its lease has ended and another worker delivers it, same webhook-id, next attempt number.
 * Its own database, so no other test file's worker takes these jobs.
 */
describe("a worker killed mid-delivery loses nothing", () => {
  let cleanup: () => Promise<void>;
  let url: string;
  let base: Db;
  let receiver: Receiver;
  let child: ChildProcess | undefined;
  let runner: Runner | undefined;
  let ctx: DomainContext;
  let restoreProcessDatabase: (() => Promise<void>) | undefined;
  let subscriptionId: string;
  let secret: string;

  beforeAll(async () => {
    const server = await testPostgres();
    const database = await createTestDatabase(server.adminUrl, "lic_whcrash");
    url = database.url;
    cleanup = async () => {
      await database.drop();
      await server.stop();
    };
    await migrate(url);
    restoreProcessDatabase = useProcessDatabase(url); // job handlers in this process use the process-wide client
    base = createDb(url, { max: 4 });
    receiver = await startReceiver();
  });

  afterAll(async () => {
    child?.kill("SIGKILL");
    await runner?.stop().catch(() => undefined);
    await receiver?.close();
    await base?.$disconnect();
    await restoreProcessDatabase?.();
    await cleanup?.();
  });

  it("SIGKILL during the attempt: the sweeper reclaims it after the lease and a new worker delivers it with the same webhook-id", async () => {
    const tenant = await createTenant(base, { name: "Crash" });
    ctx = {
      tenantId: tenant.tenantId,
      actor: { kind: "system", id: "test" },
      db: tenantDb(base, tenant.tenantId),
    };
    secret = `whsec_${Buffer.alloc(32, 4).toString("base64")}`;
    const sub = await createSubscription(ctx, adminAccess, {
      displayName: "crash",
      url: receiver.url,
      eventTypePatterns: ["*"],
      secret,
    });
    subscriptionId = sub.id;
    receiver.setHandler(challengeAnswerer(secret));
    expect((await verifySubscription(ctx, adminAccess, sub.id)).state).toBe("Active");

    // The receiver holds the first delivery open (the worker is "mid-delivery"), then answers later ones.
    let held = false;
    receiver.setHandler((_req, res) => {
      if (!held) {
        held = true;
        return;
      }
      res.writeHead(200).end("ok");
    });

    // `node --import tsx`, not the tsx CLI: the CLI runs the script in a child process SIGKILL would miss.
    child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/webhook-worker-process.ts"], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: url,
        APP_SECRET: TEST_APP_SECRET,
        WEBHOOKS_ALLOW_PRIVATE_URLS: "1",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      child!.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("worker ready") && resolve());
      child!.once("exit", (code) => reject(new Error(`worker exited with ${code}`)));
    });

    const envelope = await ctx.db.$transaction((tx) =>
      emitEvent(tx, {
        tenantId: tenant.tenantId,
        type: "Organization.Deleted",
        entityKind: "organization",
        entityId: "org-1",
        subject: "organizations/org-1",
        data: {
          organizationId: "00000000-0000-4000-8000-000000000008",
          externalReference: null,
          origin: "admin",
        },
      }),
    );
    const first = await eventually(
      () => receiver.requests.find((r) => r.headers["webhook-id"] === envelope.id),
      30_000,
      "the first attempt",
    );
    expect(first.headers["webhook-delivery-attempt"]).toBe("1");
    const sending = await base.webhookDelivery.findFirstOrThrow({
      where: { envelopeId: envelope.id },
      include: { attempts: true },
    });
    expect(sending).toMatchObject({
      status: "sending",
      attemptCount: 1,
      attempts: [{ attemptNumber: 1, status: "sending" }],
    });

    const exited = new Promise((resolve) => child!.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    child = undefined;

    // While the lease runs nothing is taken back; once it has ended the sweeper reclaims the attempt.
    expect((await sweepDeliveries(base, new Date())).reclaimed).toBe(0);
    const swept = await sweepDeliveries(base, new Date(Date.now() + DELIVERY_LEASE_MS + 1_000));
    expect(swept.reclaimed).toBe(1);

    runner = await startWorker(url);
    const second = await eventually(
      () =>
        receiver.requests.find(
          (r) => r.headers["webhook-id"] === envelope.id && r.headers["webhook-delivery-attempt"] === "2",
        ),
      30_000,
      "the redelivery",
    );
    verifyDelivery(second, secret);
    expect(second.body).toBe(first.body);
    const done = await eventually(async () => {
      const row = await base.webhookDelivery.findFirstOrThrow({
        where: { envelopeId: envelope.id },
        include: { attempts: { orderBy: { attemptNumber: "asc" } } },
      });
      return row.status === "succeeded" && row;
    });
    expect(done.attempts.map((a) => [a.attemptNumber, a.status])).toEqual([
      [1, "interrupted"],
      [2, "succeeded"],
    ]);
    expect(done.attempts[0].error).toMatch(/Interrupted/);
  });

  it("a pending delivery the pump cannot see (no attempt time) is given one by the sweeper once it is 10 minutes overdue", async () => {
    const input = {
      tenantId: ctx.tenantId,
      type: "User.Deleted",
      entityKind: "user",
      entityId: "lost",
      subject: "users/lost",
      data: {
        userId: "00000000-0000-4000-8000-000000000007",
        externalReference: null,
        origin: "admin",
        userType: "Consumer",
      },
    };
    const envelope = await ctx.db.$transaction((tx) =>
      storeEnvelope(tx, prepareEnvelope(input), { tenantId: ctx.tenantId, fanOut: false }),
    );
    // A pending delivery whose job is lost, last touched a while ago: only a lost job and time make one.
    const longAgo = new Date(Date.now() - 60_000);
    await ctx.db.webhookDelivery.create({
      data: {
        tenantId: ctx.tenantId,
        envelopeId: envelope.id,
        subscriptionId,
        eventType: "User.Deleted",
        entityId: "lost",
        status: "pending",
        nextAttemptAt: null,
        createdAt: longAgo,
        updatedAt: longAgo,
      },
    });
    expect((await sweepDeliveries(base, new Date())).rewoken).toBe(0);
    expect((await sweepDeliveries(base, new Date(Date.now() + 11 * 60_000))).rewoken).toBe(1);
    const delivered = await eventually(
      () => receiver.requests.find((r) => r.headers["webhook-id"] === envelope.id),
      30_000,
      "the woken delivery",
    );
    verifyDelivery(delivered, secret);
  });
  it("an event left without fan-out (no dispatcher draining) is fanned out by the sweeper after 10 minutes", async () => {
    const input = {
      tenantId: ctx.tenantId,
      type: "User.Deleted",
      entityKind: "user",
      entityId: "refan",
      subject: "users/refan",
      data: {
        userId: "00000000-0000-4000-8000-000000000009",
        externalReference: null,
        origin: "admin",
        userType: "Consumer",
      },
    };
    // No worker runs (so no dispatcher drains) while the event waits.
    await runner?.stop();
    runner = undefined;
    const envelope = await ctx.db.$transaction((tx) => storeEnvelope(tx, prepareEnvelope(input), input));
    expect((await sweepDeliveries(base, new Date())).refannedOut).toBe(0);
    expect((await sweepDeliveries(base, new Date(Date.now() + 11 * 60_000))).refannedOut).toBe(1);
    runner = await startWorker(url);
    const delivered = await eventually(
      () => receiver.requests.find((r) => r.headers["webhook-id"] === envelope.id),
      30_000,
      "the fanned-out delivery",
    );
    verifyDelivery(delivered, secret);
    const row = await base.webhookEnvelope.findUniqueOrThrow({ where: { id: envelope.id } });
    expect(row.fannedOutAt).not.toBeNull();
    expect((await sweepDeliveries(base, new Date(Date.now() + 11 * 60_000))).refannedOut).toBe(0);
  });
});
