import type { TaskList } from "graphile-worker";
import { purge_expired_idempotency } from "./purge-expired-idempotency.ts";

/**
 * Every job the worker runs, by task identifier. Jobs are enqueued with `enqueueJob` (in the
 * transaction of the change that causes them) or scheduled by the crontab in server/worker.ts.
 */
export const taskList = {
  purge_expired_idempotency,
} satisfies TaskList;

export type TaskIdentifier = keyof typeof taskList;
