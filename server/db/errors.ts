import { AppError } from "../core/errors.ts";

/** Whether a Prisma error is a unique-constraint violation (P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

/** Whether a Prisma error says the row to update or delete does not exist (P2025). */
export function isRecordNotFound(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2025";
}

/** Whether PostgreSQL aborted the transaction to break a deadlock or a serialization conflict. */
export function isTransactionConflict(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === "P2034" || code === "40P01" || code === "40001";
}

/**
 * Runs a transaction again when PostgreSQL chose it as a deadlock or serialization victim: the
 * documented remedy, since the other transaction has gone on and a retry finds the rows free.
 */
export async function retryOnConflict<T>(fn: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= attempts || !isTransactionConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt * Math.random()));
    }
  }
}

/** SQLSTATEs and socket errors of a database that is down, restarting or unreachable (not a bug). */
const UNAVAILABLE_CODES = new Set([
  "57P01", // admin_shutdown: the server is stopping
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up or shutting down
  "08000",
  "08001",
  "08003",
  "08006", // connection exceptions
  "53300", // too_many_connections
  // read_only_sql_transaction: a write reached a server that cannot take writes now, a standby
  // during a failover (promoting, or a former leader a pool still holds). The app's own READ ONLY
  // transactions (reports, exports) never write, so here it means the database, not the request.
  "25006",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "P1001", // Prisma: cannot reach the database server
  "P1017", // Prisma: the server closed the connection
]);

/**
 * Whether an error (or one of its causes, as Prisma's driver adapter wraps pg's) says the database
 * is unavailable rather than that the request or the code is wrong: the caller answers 503 with
 * Retry-After, since the same request succeeds once the database is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 6; depth++) {
    const { code, message, cause, originalCode, meta } = e as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      originalCode?: unknown;
      meta?: { driverAdapterError?: unknown };
    };
    if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return true;
    // Prisma's pg adapter keeps PostgreSQL's SQLSTATE as originalCode, under meta.driverAdapterError.
    if (typeof originalCode === "string" && UNAVAILABLE_CODES.has(originalCode)) return true;
    if (meta?.driverAdapterError && isDatabaseUnavailable(meta.driverAdapterError)) return true;
    if (
      typeof message === "string" &&
      /Connection terminated|Server has closed the connection|terminating connection due to administrator command|connect ECONNREFUSED|the database system is (starting up|shutting down)|Can't reach database server|connection error and is not queryable|timeout exceeded when trying to connect|cannot execute \w+ in a read-only transaction/i.test(
        message,
      )
    )
      return true;
    e = cause;
  }
  return false;
}

/**
 * What every surface (REST routes, the token endpoint, tRPC) answers while the database is away:
 * 503 `service.unavailable` with Retry-After, so clients retry instead of reporting a bug.
 */
export function databaseUnavailableError(): AppError {
  return new AppError(
    "service.unavailable",
    "The service cannot reach its database right now; retry shortly.",
    {
      headers: { "retry-after": "1" },
    },
  );
}
