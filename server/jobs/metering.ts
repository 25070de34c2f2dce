import type { Task } from "graphile-worker";
import { db } from "../db/client.ts";
import { sqlOf } from "../db/sql.ts";
import { now } from "../clock.ts";
import { runAutoBalances, sweepConsumeKeys } from "../domain/cross-tenant.ts";

/** Cron task (every minute, see server/worker.ts): balances scheduled credit balances, once per instant. */
export const metering_auto_balance: Task = async (_payload, helpers) => {
  const ran = await runAutoBalances(sqlOf(db()), now());
  if (ran > 0) helpers.logger.info(`auto-balanced ${ran} credit balance(s)`);
};

/** Cron task (every 15 minutes): forgets consume idempotency keys older than 24 hours. */
export const metering_consume_key_sweep: Task = async (_payload, helpers) => {
  const deleted = await sweepConsumeKeys(sqlOf(db()), now());
  if (deleted > 0) helpers.logger.info(`forgot ${deleted} consume idempotency key(s)`);
};
