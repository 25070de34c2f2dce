// The worker process (npm run worker, or spawned by npm start): runs graphile-worker jobs and the
// crontab, the webhook dispatcher (docs/architecture.md section 7), and reports a heartbeat that /api/ready
// checks (docs/architecture.md sections 10 and 12).
import { hostname } from "node:os";
import type { Runner } from "graphile-worker";
import pg from "pg";
import { now } from "./clock.ts";
import { databaseUrl } from "./config.ts";
import { db } from "./db/client.ts";
import { pgPool } from "./db/pool.ts";
import { taskList } from "./jobs/index.ts";
import { runWorker } from "./jobs/run-worker.ts";
import { graphileLogger, isConnectionLoss } from "./jobs/worker-logger.ts";
import { logger } from "./log.ts";

const crontab = [
  "*/15 * * * * purge_expired_idempotency",
  "* * * * * webhook_sweep",
  "* * * * * license_lease_sweep",
  "*/10 * * * * webhook_capture_retention",
  "*/15 * * * * anonymous_try_purge",
  "* * * * * metering_auto_balance",
  "*/15 * * * * metering_consume_key_sweep",
  "*/10 * * * * retention_sweep",
  "*/5 * * * * rate_limit_sweep",
  "23 * * * * ledger_maintenance",
].join("\n");

const heartbeatIntervalMs = 10_000;
/** Rows of workers that vanished without a clean shutdown are dropped after this long. */
const staleHeartbeatMs = 24 * 60 * 60 * 1000;
/** Running jobs get this long to finish on shutdown before the process exits anyway. */
const shutdownTimeoutMs = 25_000;

const workerId = `${hostname()}:${process.pid}`;
const log = logger.child({ component: "worker", workerId });

let stopping = false;

const workerLogger = graphileLogger(log, () => stopping);

async function beat(startedAt: Date): Promise<void> {
  const at = now();
  await db().workerHeartbeat.upsert({
    where: { workerId },
    create: { workerId, startedAt, lastSeenAt: at },
    update: { lastSeenAt: at },
  });
}

async function main() {
  const concurrency = Number(process.env.WORKER_CONCURRENCY ?? 5);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new Error(`WORKER_CONCURRENCY must be a positive integer, got ${process.env.WORKER_CONCURRENCY}`);

  const startedAt = now();
  await db().workerHeartbeat.deleteMany({
    where: { lastSeenAt: { lt: new Date(startedAt.getTime() - staleHeartbeatMs) } },
  });
  await beat(startedAt);
  const heartbeat = setInterval(() => {
    beat(startedAt).catch((error: unknown) => log.warn({ err: error }, "heartbeat failed"));
  }, heartbeatIntervalMs);

  let runner: Runner | undefined;
  let pool: pg.Pool | undefined;
  const shutdown = async (reason: string) => {
    // A terminal's Ctrl-C reaches this process and its supervisor, which forwards it again.
    if (stopping) return;
    stopping = true;
    log.info({ reason }, "worker stopping");
    setTimeout(() => {
      log.error("worker did not stop in time; exiting");
      process.exit(1);
    }, shutdownTimeoutMs).unref();
    clearInterval(heartbeat);
    let code = 0;
    try {
      await runner?.stop(reason);
    } catch (error) {
      log.error({ err: error }, "worker stopped with an error");
      code = 1;
    }
    await db()
      .workerHeartbeat.deleteMany({ where: { workerId } })
      .catch(() => undefined);
    await Promise.all([
      db()
        .$disconnect()
        .catch(() => undefined),
      pool?.end().catch(() => undefined),
      pgPool()
        .end()
        .catch(() => undefined),
    ]);
    process.exit(code);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
    process.on(signal, () => void shutdown(signal));

  // Our own pool, so its error handler outlives the runner: graphile-worker removes its handler on
  // stop, and an idle connection dropped by a stopping database would then crash the process.
  pool = new pg.Pool({ connectionString: databaseUrl(), max: concurrency + 2 });
  const onConnectionError = (error: Error) => {
    if (!(stopping && isConnectionLoss(error))) log.warn({ err: error }, "database connection lost");
  };
  pool.on("error", onConnectionError);
  pool.on("connect", (client) => client.on("error", onConnectionError));
  runner = await runWorker({
    connectionString: databaseUrl(),
    pgPool: pool,
    crontab,
    concurrency,
    logger: workerLogger,
    log,
  });
  log.info({ concurrency, tasks: Object.keys(taskList) }, "worker started");

  runner.promise.then(
    () => {
      if (!stopping) {
        log.error("worker runner ended unexpectedly");
        process.exit(1);
      }
    },
    (error: unknown) => {
      if (stopping) return;
      log.error({ err: error }, "worker runner failed");
      process.exit(1);
    },
  );
}

main().catch((error: unknown) => {
  log.error({ err: error }, "worker failed to start");
  process.exit(1);
});
