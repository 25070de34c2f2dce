import type { Task } from "graphile-worker";
import type { TaskIdentifier } from "../db/job-queue.ts";
import { license_lease_sweep } from "./license-leases.ts";
import { anonymous_try_purge } from "./anonymous-tries.ts";
import { metering_auto_balance, metering_consume_key_sweep } from "./metering.ts";
import { purge_expired_idempotency } from "./purge-expired-idempotency.ts";
import { webhook_capture_retention, webhook_sweep } from "./webhooks.ts";
import { retention_sweep } from "./retention.ts";
import { rate_limit_sweep } from "./rate-limits.ts";
import { ledger_maintenance } from "./ledger-maintenance.ts";

/**
 * The handler of every task identifier (server/db/job-queue.ts). Jobs are enqueued with `enqueueJob`
 * (in the transaction of the change that causes them) or scheduled by the crontab in server/worker.ts.
 */
export const taskList = {
  purge_expired_idempotency,
  license_lease_sweep,
  webhook_sweep,
  webhook_capture_retention,
  anonymous_try_purge,
  metering_auto_balance,
  metering_consume_key_sweep,
  retention_sweep,
  rate_limit_sweep,
  ledger_maintenance,
} satisfies Record<TaskIdentifier, Task>;
