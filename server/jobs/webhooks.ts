import type { Task } from "graphile-worker";
import { db as processDb } from "../db/client.ts";
import { now } from "../clock.ts";
import { enforceCaptureRetention, sweepDeliveries } from "../domain/cross-tenant.ts";

// Fan-out and delivery are not jobs: the worker's webhook dispatcher (webhook-dispatcher.ts)
// drains the outbox and pumps due deliveries (docs/architecture.md section 7). These are its cron jobs.

/** Cron, every minute: attempts lost with their worker, envelopes left without fan-out. */
export const webhook_sweep: Task = async (_payload, helpers) => {
  const result = await sweepDeliveries(processDb(), now());
  if (result.reclaimed || result.rewoken || result.refannedOut)
    helpers.logger.info(
      `webhook sweep: ${result.reclaimed} interrupted attempt(s) reclaimed, ${result.rewoken} delivery(ies) given a time, ${result.refannedOut} envelope(s) fanned out`,
    );
};

/** Cron, every 10 minutes: 7 days or 1,000 captured deliveries per capture subscription. */
export const webhook_capture_retention: Task = async (_payload, helpers) => {
  const deleted = await enforceCaptureRetention(processDb(), now());
  if (deleted > 0) helpers.logger.info(`capture retention: ${deleted} captured delivery(ies) removed`);
};
