import type { Task } from "graphile-worker";
import { db } from "../db/client.ts";
import { sweepExpiredLeases } from "../domain/cross-tenant.ts";

/** Cron task (every minute, see server/worker.ts): ends sessions whose grace has run out, silently. */
export const license_lease_sweep: Task = async (_payload, helpers) => {
  const ended = await sweepExpiredLeases(db());
  if (ended > 0) helpers.logger.info(`ended ${ended} session(s) past their grace period`);
};
