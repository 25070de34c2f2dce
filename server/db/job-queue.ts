/**
 * Every job the worker runs, by task identifier: the queue's vocabulary, so that domain code can
 * enqueue a job without importing the job handlers (server/jobs/index.ts maps each to its handler).
 */
export const taskIdentifiers = [
  "purge_expired_idempotency",
  "license_lease_sweep",
  "webhook_sweep",
  "webhook_capture_retention",
  "anonymous_try_purge",
  "metering_auto_balance",
  "metering_consume_key_sweep",
  "retention_sweep",
  "rate_limit_sweep",
  "ledger_maintenance",
] as const;
export type TaskIdentifier = (typeof taskIdentifiers)[number];

export type EnqueueOptions = {
  /** Jobs of one named queue run one at a time, in order. */
  queueName?: string;
  runAt?: Date;
  maxAttempts?: number;
  /** Deduplicates: a pending job with the same key is replaced (see jobKeyMode). */
  jobKey?: string;
  jobKeyMode?: "replace" | "preserve_run_at" | "unsafe_dedupe";
  priority?: number;
  flags?: string[];
};

/**
 * Anything that runs a raw query: the Prisma client, a TenantDb, or (usually) the transaction
 * client of the change that causes the job.
 */
export type RawQueryClient = {
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<T>;
};

/**
 * Enqueues a graphile-worker job through the caller's transaction, so the job exists exactly when
 * the change that causes it commits (a rolled-back change leaves no job behind). Returns the job id.
 */
export async function enqueueJob(
  tx: RawQueryClient,
  taskIdentifier: TaskIdentifier,
  payload: Record<string, unknown> = {},
  options: EnqueueOptions = {},
): Promise<string> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM graphile_worker.add_job(
      identifier => ${taskIdentifier}::text,
      payload => ${JSON.stringify(payload)}::json,
      queue_name => ${options.queueName ?? null}::text,
      run_at => ${options.runAt?.toISOString() ?? null}::timestamptz,
      max_attempts => ${options.maxAttempts ?? null}::int,
      job_key => ${options.jobKey ?? null}::text,
      priority => ${options.priority ?? null}::int,
      flags => ${options.flags ?? null}::text[],
      job_key_mode => ${options.jobKeyMode ?? null}::text
    )`;
  return rows[0].id;
}
