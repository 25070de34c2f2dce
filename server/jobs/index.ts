import type { TaskList } from "graphile-worker";
import { license_lease_sweep } from "./license-leases.ts";
import { purge_expired_idempotency } from "./purge-expired-idempotency.ts";
import { webhook_capture_retention, webhook_deliver, webhook_fan_out, webhook_sweep } from "./webhooks.ts";

/**
 * Every job the worker runs, by task identifier. Jobs are enqueued with `enqueueJob` (in the
 * transaction of the change that causes them) or scheduled by the crontab in server/worker.ts.
 */
export const taskList = {
  purge_expired_idempotency,
  license_lease_sweep,
  webhook_fan_out,
  webhook_deliver,
  webhook_sweep,
  webhook_capture_retention,
} satisfies TaskList;

export type TaskIdentifier = keyof typeof taskList;
