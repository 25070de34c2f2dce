import { Logger as WorkerLogger } from "graphile-worker";
import type { Logger } from "../log.ts";

/** Connections a stopping database drops (a terminal's Ctrl-C reaches PostgreSQL too). */
export function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code === "57P01" || code === "57P03" || code === "ECONNREFUSED" || code === "ECONNRESET";
}

/**
 * graphile-worker's logger on ours: one line per job at `info` ("Completed task 12 (…, 3.1ms) with
 * success" with its scope: task, job id, worker), never the job record graphile-worker attaches
 * (its payload, its queue fields, its last error). An error keeps pino's readable form rather than
 * the pg client it can drag along. Connection losses while stopping are debug noise.
 */
export function graphileLogger(log: Logger, isStopping: () => boolean): WorkerLogger {
  return new WorkerLogger((scope) => (level, message, meta) => {
    const { error, job, ...rest } = (meta ?? {}) as { error?: unknown; job?: unknown };
    void job;
    const fields = error === undefined ? { ...scope, ...rest } : { ...scope, ...rest, err: error };
    if (isStopping() && isConnectionLoss(error)) log.debug(fields, message);
    else if (level === "error") log.error(fields, message);
    else if (level === "warning") log.warn(fields, message);
    else if (level === "info") log.info(fields, message);
    else log.debug(fields, message);
  });
}
