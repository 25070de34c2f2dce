import { spawn, type ChildProcess } from "node:child_process";
import { quickAddJob, Logger } from "graphile-worker";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../server/db/client.ts";
import { migrate } from "../../server/db/migrate.ts";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { systemContext } from "../../server/domain/context.ts";
import { createTenant, runAutoBalances } from "../../server/domain/cross-tenant.ts";
import { sqlOnPool } from "../../server/db/sql.ts";
import { defaultKeyIssuancePolicy } from "../../server/domain/entitlements/entitlement/key-issuance-policy.schemas.ts";
import { rebuildMeteringCounters } from "../../server/domain/metering/ledger/rebuild-counters.ts";
import { emitEvent } from "../../server/domain/webhooks/events/emit-event.ts";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "../../server/domain/webhooks/delivery/retry-schedule.ts";
import { DELIVERY_TIMEOUT_MS } from "../../server/domain/webhooks/delivery/settings.ts";
import { createSubscription } from "../../server/domain/webhooks/subscriptions/create-subscription.ts";
import { adminAccess } from "../../server/domain/webhooks/subscriptions/subscription-access.ts";
import { verifySubscription } from "../../server/domain/webhooks/subscriptions/verify-subscription.ts";
import { useProcessDatabase } from "../helpers/db.ts";
import { createTestDatabase, repoRoot, testPostgres, TEST_APP_SECRET } from "../helpers/test-server.ts";
import { challengeAnswerer, eventually, startReceiver, type Receiver } from "../helpers/webhooks.ts";

/**
 * docs/security.md "Suites", faults of the worker: the real worker process (server/worker.ts, as
 * `npm run worker` runs it) killed with SIGKILL mid-way through auto-balance, and a webhook
 * receiver that times out or answers 5xx in storms. Their own database, so no other file's worker
 * or balances take part. Nothing lost, nothing applied twice.
 */

const quiet = new Logger(() => () => {});

type WorkerProcess = { child: ChildProcess; lines: string[]; exited: Promise<number | null> };

/**
 * Starts server/worker.ts with `node --import tsx` (the tsx CLI would run it in a child process
 * that SIGKILL misses) and waits for its heartbeat row. Its JSON log lines are kept; the logger
 * writes them in 4 KB batches, all of them by the time a graceful stop has exited.
 */
async function startWorkerProcess(base: Db, databaseUrl: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ["--import", "tsx", "server/worker.ts"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      APP_SECRET: TEST_APP_SECRET,
      WEBHOOKS_ALLOW_PRIVATE_URLS: "1",
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let buffered = "";
  const collect = (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    lines.push(...parts.filter(Boolean));
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const worker: WorkerProcess = { child, lines, exited };
  await whileAlive(worker, async () => {
    await eventually(
      () =>
        base.workerHeartbeat
          .findFirst({ where: { workerId: { endsWith: `:${child.pid}` } } })
          .then((r) => !!r),
      90_000,
      "the worker's heartbeat",
    );
    // Its jobs runner is up once a job it alone can take (the others are dead) has run: a webhook
    // sweep, which changes nothing here. Events emitted after this meet a running dispatcher.
    const probe = await quickAddJob({ connectionString: databaseUrl, logger: quiet }, "webhook_sweep", {});
    await eventually(
      () =>
        base.$queryRaw<
          unknown[]
        >`SELECT 1 FROM graphile_worker._private_jobs WHERE id = ${probe.id}::bigint`.then(
          (rows) => rows.length === 0,
        ),
      90_000,
      "the worker's first job",
    );
  });
  return worker;
}

/** Runs `wait`, failing at once (with the worker's log) if the worker exits meanwhile. */
function whileAlive<T>(worker: WorkerProcess, wait: () => Promise<T>): Promise<T> {
  return Promise.race([
    wait(),
    worker.exited.then((code): never => {
      throw new Error(`worker exited with ${code}:\n${worker.lines.join("\n")}`);
    }),
  ]);
}

/** A graceful stop (SIGTERM, as a deploy sends): its exit code. */
async function stopGracefully(worker: WorkerProcess) {
  worker.child.kill("SIGTERM");
  return worker.exited;
}

async function kill9(worker: WorkerProcess) {
  process.kill(worker.child.pid!, "SIGKILL");
  await worker.exited;
}

/** Log lines at `level` or above (pino: 40 warn, 50 error, 60 fatal), and any line that is not JSON. */
const errorLines = (lines: string[], level = 50) =>
  lines.filter((line) => {
    try {
      return (JSON.parse(line) as { level: number }).level >= level;
    } catch {
      return true;
    }
  });

describe("worker faults", () => {
  let url: string;
  let base: Db;
  let cleanup: () => Promise<void>;
  const workers: WorkerProcess[] = [];
  let restoreProcessDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const server = await testPostgres();
    const database = await createTestDatabase(server.adminUrl, "lic_wfault");
    url = database.url;
    cleanup = async () => {
      await database.drop();
      await server.stop();
    };
    await migrate(url);
    // Domain functions run in this process (verification challenges) use the process-wide client.
    restoreProcessDatabase = useProcessDatabase(url);
    base = createDb(url, { max: 4 });
  });

  afterAll(async () => {
    for (const w of workers)
      if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
    await base?.$disconnect();
    await restoreProcessDatabase?.();
    await cleanup?.();
  });

  it("kill -9 of the worker mid-way through auto-balance: another worker balances the rest, each balance exactly once", async () => {
    const ENTITLEMENTS = 4;
    const METRICS = 10;
    const total = ENTITLEMENTS * METRICS;
    const tenant = await createTenant(base, { name: "Auto-balance fault" });
    const db = tenantDb(base, tenant.tenantId);
    // Made two hours ago, so this hour's instant of "0 * * * *" is due for every balance.
    const createdAt = new Date(Date.now() - 2 * 3_600_000);
    const entitlementIds: string[] = [];
    for (let e = 0; e < ENTITLEMENTS; e++) {
      const entitlement = await db.entitlement.create({
        data: {
          tenantId: tenant.tenantId,
          name: `Credits ${e}`,
          description: "",
          features: [],
          activationPolicy: {},
          claimBasedActivation: {
            leaseTime: "PT1H",
            gracePeriod: "P1D",
            numberOfSeats: 1,
            isFloatingLicense: false,
          },
          keyIssuancePolicy: defaultKeyIssuancePolicy(),
          productIds: [],
        },
      });
      entitlementIds.push(entitlement.id);
      for (let m = 0; m < METRICS; m++) {
        const asset = await db.monitoredAsset.create({
          data: {
            tenantId: tenant.tenantId,
            ownerKind: "Entitlement",
            ownerId: entitlement.id,
            entitlementId: entitlement.id,
            ownerStatus: "Published",
            metricName: `credits${m}`,
            name: `credits${m}`,
          },
        });
        // Carrying what remains makes a second top-up visible: 10 + 100 once, 110 + 100 twice.
        await db.balanceUsage.create({
          data: {
            tenantId: tenant.tenantId,
            monitoredAssetId: asset.id,
            name: `credits${m}`,
            totalCredits: 10,
            initialCreditAmount: 10,
            usageQuota: [],
            autoBalanceCronSchedule: "0 * * * *",
            autoBalanceCreditAmount: 100,
            shouldAutoBalanceTransferCurrentCredits: true,
            createdAt,
          },
        });
      }
    }

    // The test holds one balance's row lock, the middle one in the worker's scan order: the worker
    // balances those before it, claims that one and waits on the lock; the kill lands there.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    const order = await holder.query<{ id: string }>(
      `SELECT bu.id FROM "BalanceUsage" bu JOIN "MonitoredAsset" a ON a."tenantId" = bu."tenantId" AND a.id = bu."monitoredAssetId"
       WHERE bu."autoBalanceCronSchedule" IS NOT NULL AND NOT bu."isUnlimitedCredits"
         AND a."ownerKind" = 'Entitlement' AND a."ownerStatus" = 'Published'`,
    );
    expect(order.rows).toHaveLength(total);
    const held = order.rows[total / 2].id;
    await holder.query("BEGIN");
    await holder.query(`SELECT id FROM "BalanceUsage" WHERE id = $1 FOR UPDATE`, [held]);

    const runs = async () =>
      (await db.autoBalanceRun.findMany({ select: { balanceUsageId: true } })).map((r) => r.balanceUsageId);
    try {
      const victim = await startWorkerProcess(base, url);
      workers.push(victim);
      await quickAddJob({ connectionString: url, logger: quiet }, "metering_auto_balance", {});
      await whileAlive(victim, () =>
        eventually(
          async () =>
            (
              await holder.query(
                `SELECT 1 FROM pg_stat_activity WHERE pg_backend_pid() = ANY (pg_blocking_pids(pid))`,
              )
            ).rowCount! > 0,
          60_000,
          "the worker to wait on the held balance",
        ),
      ).catch(async (error: Error) => {
        const activity = await holder.query(
          `SELECT state, wait_event_type, wait_event, left(query, 80) AS query FROM pg_stat_activity WHERE datname = current_database()`,
        );
        const jobs = await holder.query(
          `SELECT task_identifier, attempts, last_error, locked_at FROM graphile_worker.jobs`,
        );
        throw new Error(
          `${error.message}; ${(await runs()).length} runs; activity ${JSON.stringify(activity.rows)}; jobs ${JSON.stringify(jobs.rows)}`,
        );
      });
      const beforeKill = await runs();
      // Killed mid-way: some balances done (committed), the held one claimed but not committed, the rest untouched.
      expect(beforeKill.length).toBeGreaterThan(0);
      expect(beforeKill.length).toBeLessThan(total);
      expect(beforeKill).not.toContain(held);
      await kill9(victim);
      await holder.query("ROLLBACK");

      const survivor = await startWorkerProcess(base, url);
      workers.push(survivor);
      await quickAddJob({ connectionString: url, logger: quiet }, "metering_auto_balance", {});
      await whileAlive(survivor, () =>
        eventually(async () => (await runs()).length === total, 60_000, "every balance to be auto-balanced"),
      );
      // Another pass (a later cron tick, or a third worker) finds nothing left to do.
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      try {
        expect(await runAutoBalances(sqlOnPool(pool), new Date())).toBe(0);
      } finally {
        await pool.end();
      }
      expect(await stopGracefully(survivor)).toBe(0);
      expect(errorLines(survivor.lines)).toEqual([]);
      console.info(
        `faults: worker SIGKILL mid auto-balance after ${beforeKill.length} of ${total} balances; the next worker did ${total - beforeKill.length}`,
      );
    } finally {
      await holder.end();
    }

    const all = await runs();
    expect(new Set(all).size).toBe(total);
    const balances = await db.balanceUsage.findMany();
    expect(balances.map((b) => [b.totalCredits.toNumber(), b.creditsUsed.toNumber()])).toEqual(
      balances.map(() => [110, 0]),
    );
    const history = await db.balanceHistoryEntry.findMany({
      select: { balanceUsageId: true, operation: true },
    });
    expect(history.filter((h) => h.operation === "AutoBalance")).toHaveLength(total);
    expect(new Set(history.map((h) => h.balanceUsageId)).size).toBe(total);
    // Ledger first: each balance replayed from its history equals the stored one.
    const ctx = systemContext(base, tenant.tenantId, "test");
    for (const entitlementId of entitlementIds) {
      const rebuilt = await rebuildMeteringCounters(ctx, entitlementId);
      expect(rebuilt.balances).toHaveLength(METRICS);
      for (const r of rebuilt.balances) {
        const stored = balances.find((b) => b.id === r.balanceUsageId)!;
        expect([r.totalCredits, r.creditsUsed].map(Number)).toEqual([
          stored.totalCredits.toNumber(),
          stored.creditsUsed.toNumber(),
        ]);
      }
    }
  }, 240_000);

  it("receiver storms: attempts that time out or answer 5xx are retried on the schedule; every delivery succeeds once or is dead-lettered after the last attempt", async () => {
    // The real schedule, compressed the project's way (WEBHOOKS_RETRY_SCALE): eight attempts in ~10 s.
    const scale = 0.0001;
    const tenant = await createTenant(base, { name: "Storm" });
    const ctx = systemContext(base, tenant.tenantId, "test");
    const receiver: Receiver = await startReceiver();
    try {
      const secret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
      receiver.setHandler(challengeAnswerer(secret));
      const subscribe = async (name: string, eventTypePatterns: string[]) => {
        const sub = await createSubscription(ctx, adminAccess, {
          displayName: name,
          url: `${receiver.url}/${name}`,
          eventTypePatterns,
          secret,
        });
        expect((await verifySubscription(ctx, adminAccess, sub.id)).state).toBe("Active");
        return sub.id;
      };
      const storming: string[] = [];
      for (let i = 0; i < 4; i++) storming.push(await subscribe(`storm-${i}`, ["*"]));
      // Never recovers: its deliveries must end dead-lettered after exactly the schedule's attempts.
      const broken = await subscribe("broken", ["User.Deleted"]);

      // What the receiver answers, by delivery (in the order first seen) and attempt: ten scripts,
      // "hold" keeping the socket open past the 15 s delivery timeout. 70 % meet the storm.
      type Step = number | "hold";
      const scripts: Step[][] = [
        [200],
        [200],
        [200],
        [500, 502, 503, 200],
        [503, 500, 200],
        [500, 200],
        ["hold", 503, 200],
        ["hold", 200],
        [502, "hold", 200],
        [429, 500, "hold", 200],
      ];
      const planOf = new Map<string, Step[]>();
      let stormKeys = 0;
      const answered = new Map<string, Step[]>();
      receiver.setHandler((req, res) => {
        const key = `${req.headers["webhook-subscription"]}|${req.headers["webhook-id"]}`;
        const attempt = Number(req.headers["webhook-delivery-attempt"]);
        let plan = planOf.get(key);
        if (!plan) {
          plan = req.headers["webhook-subscription"] === broken ? [] : scripts[stormKeys++ % scripts.length];
          planOf.set(key, plan);
        }
        const step = plan.length ? (plan[attempt - 1] ?? 200) : 503;
        answered.set(key, [...(answered.get(key) ?? []), step]);
        if (step !== "hold") res.writeHead(step).end(step === 200 ? "ok" : "storm");
      });

      const worker = await startWorkerProcess(base, url, { WEBHOOKS_RETRY_SCALE: String(scale) });
      workers.push(worker);
      const EVENTS = 30;
      const USER_EVENTS = 5;
      const envelopes: string[] = [];
      for (let i = 0; i < EVENTS; i++) {
        const user = i < USER_EVENTS;
        const id = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
        const envelope = await ctx.db.$transaction((tx) =>
          emitEvent(tx, {
            tenantId: tenant.tenantId,
            type: user ? "User.Deleted" : "Organization.Deleted",
            entityKind: user ? "user" : "organization",
            entityId: id,
            subject: user ? `users/${id}` : `organizations/${id}`,
            data: user
              ? { userId: id, externalReference: null, origin: "admin", userType: "Consumer" }
              : { organizationId: id, externalReference: null, origin: "admin" },
          }),
        );
        envelopes.push(envelope.id);
      }
      const expected = EVENTS * storming.length + USER_EVENTS;
      const deliveries = () =>
        ctx.db.webhookDelivery.findMany({
          // The registration challenges sent when the subscriptions were verified are not counted.
          where: { envelopeId: { in: envelopes } },
          include: { attempts: { orderBy: { attemptNumber: "asc" } } },
          orderBy: { createdAt: "asc" },
        });
      const settled = await eventually(
        async () => {
          const rows = await deliveries();
          return (
            rows.length === expected && rows.every((d) => ["succeeded", "dead"].includes(d.status)) && rows
          );
        },
        DELIVERY_TIMEOUT_MS + 60_000,
        "every delivery to succeed or be dead-lettered",
      ).catch(async (error: Error) => {
        const rows = await deliveries();
        const byState: Record<string, number> = {};
        for (const d of rows)
          byState[`${d.status}/${d.attemptCount}`] = (byState[`${d.status}/${d.attemptCount}`] ?? 0) + 1;
        throw new Error(
          `${error.message}: ${rows.length} of ${expected} deliveries, ${JSON.stringify(byState)}`,
        );
      });

      // Nothing lost: one delivery per envelope and matching subscription.
      expect(new Set(settled.map((d) => `${d.subscriptionId}|${d.envelopeId}`)).size).toBe(expected);
      expect(new Set(settled.map((d) => d.envelopeId))).toEqual(new Set(envelopes));
      let storms = 0;
      let timeouts = 0;
      for (const d of settled) {
        const key = `${d.subscriptionId}|${d.envelopeId}`;
        const sent = receiver.requests.filter(
          (r) => `${r.headers["webhook-subscription"]}|${r.headers["webhook-id"]}` === key,
        );
        const steps = answered.get(key)!;
        // Each try recorded once, numbered in order, and the receiver saw exactly those tries.
        expect(d.attempts.map((a) => a.attemptNumber)).toEqual(steps.map((_, i) => i + 1));
        expect(sent.map((r) => r.headers["webhook-delivery-attempt"])).toEqual(
          steps.map((_, i) => String(i + 1)),
        );
        expect(new Set(sent.map((r) => r.body)).size).toBe(1);
        expect(d.attemptCount).toBe(steps.length);
        d.attempts.forEach((a, i) => {
          const step = steps[i];
          if (step === "hold") {
            timeouts += 1;
            expect([a.status, a.responseStatus]).toEqual(["failed", null]);
            expect(a.error).toMatch(/tim/i);
            expect(a.durationMs).toBeGreaterThanOrEqual(DELIVERY_TIMEOUT_MS - 100);
          } else {
            expect([a.status, a.responseStatus]).toEqual([step === 200 ? "succeeded" : "failed", step]);
          }
        });
        if (d.subscriptionId === broken) {
          expect(d.status).toBe("dead");
          expect(steps).toEqual(new Array(MAX_ATTEMPTS).fill(503));
          // Each retry waited at least its (scaled) delay after the previous try.
          for (let i = 1; i < sent.length; i++)
            expect(sent[i].receivedAt - sent[i - 1].receivedAt).toBeGreaterThanOrEqual(
              Math.round(RETRY_DELAYS_MS[i] * scale) - 1,
            );
        } else {
          // The storm passed: each webhook-id succeeded at the receiver exactly once, on its last try.
          expect(d.status).toBe("succeeded");
          expect(steps.filter((s) => s === 200)).toHaveLength(1);
          expect(steps.at(-1)).toBe(200);
          if (steps.length > 1) storms += 1;
        }
      }
      // 120 storm deliveries, twelve per script: 84 met the storm, 48 tries were held past the timeout.
      expect([storms, timeouts]).toEqual([84, 48]);
      // The worker stayed healthy: alive through the storm, no claim left behind, a clean
      // graceful stop, nothing logged at warn or above.
      expect(worker.child.exitCode).toBeNull();
      expect(await ctx.db.webhookDelivery.count({ where: { status: { in: ["sending", "pending"] } } })).toBe(
        0,
      );
      expect(await ctx.db.webhookDeliveryAttempt.count({ where: { status: "sending" } })).toBe(0);
      expect(await stopGracefully(worker)).toBe(0);
      expect(errorLines(worker.lines, 40)).toEqual([]);
      console.info(
        `faults: receiver storm, ${expected} deliveries (${storms} through a storm, ${timeouts} timed-out tries, ${USER_EVENTS} dead-lettered after ${MAX_ATTEMPTS} tries), ${receiver.requests.length} requests`,
      );
    } finally {
      await receiver.close();
    }
  }, 240_000);
});
