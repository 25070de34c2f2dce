import type { Task } from "graphile-worker";
import { db } from "../db/client.ts";
import { now } from "../clock.ts";
import { sweepRateLimitCounters } from "../domain/rate-limits/sweep-rate-limit-counters.ts";

/** Cron task (every 5 minutes, see server/worker.ts): ended rate-limit windows go. */
export const rate_limit_sweep: Task = async (_payload, helpers) => {
  const deleted = await sweepRateLimitCounters(db(), now());
  if (deleted > 0) helpers.logger.info(`deleted ${deleted} ended rate-limit window(s)`);
};
