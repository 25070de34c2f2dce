import { run, type Logger as WorkerLogger, type Runner } from "graphile-worker";
import pg from "pg";
import { db } from "../db/client.ts";
import type { Logger } from "../log.ts";
import { taskList } from "./index.ts";
import { startWebhookDispatcher } from "./webhook-dispatcher.ts";

export type WorkerRunOptions = {
  connectionString: string;
  /** graphile-worker's own pool (the worker process keeps an error handler on it); else one of its own. */
  pgPool?: pg.Pool;
  concurrency: number;
  crontab?: string;
  pollInterval?: number;
  logger: WorkerLogger;
  log: Logger;
  /** The webhook dispatcher's poll (tests and benches may shorten it; at most 200 ms). */
  webhookPollMs?: number;
};

/**
 * A worker: graphile-worker's jobs and crontab, and the webhook dispatcher beside them, on the
 * process-wide Prisma client and pool. The answer is graphile-worker's Runner whose `stop` stops
 * the dispatcher first (attempts under way finish and are recorded), then the jobs.
 */
export async function runWorker(options: WorkerRunOptions): Promise<Runner> {
  const runner = await run({
    connectionString: options.pgPool ? undefined : options.connectionString,
    pgPool: options.pgPool,
    taskList,
    crontab: options.crontab,
    concurrency: options.concurrency,
    pollInterval: options.pollInterval,
    noHandleSignals: true,
    logger: options.logger,
  });
  // The delivery pump's claims and recorded successes commit without waiting for the WAL flush:
  // losing the last moments of that bookkeeping in a database crash only sends those attempts
  // again (at-least-once; receivers dedupe on webhook-id), and a commit that waits for the disk
  // would pace every attempt (docs/decisions.md "Webhooks").
  const pumpPool = new pg.Pool({
    connectionString: options.connectionString,
    max: 4,
    options: "-c synchronous_commit=off",
  });
  pumpPool.on("error", (error) => options.log.warn({ err: error }, "webhook pump: idle connection lost"));
  let dispatcher;
  try {
    dispatcher = await startWebhookDispatcher({
      base: db(),
      pool: pumpPool,
      connectionString: options.connectionString,
      log: options.log.child({ component: "webhooks" }),
      pollMs: options.webhookPollMs,
    });
  } catch (error) {
    await runner.stop();
    await pumpPool.end();
    throw error;
  }
  const stopJobs = runner.stop;
  return {
    ...runner,
    stop: async (reason?: string) => {
      await dispatcher.stop();
      await pumpPool.end().catch(() => undefined);
      await stopJobs(reason);
    },
  };
}
