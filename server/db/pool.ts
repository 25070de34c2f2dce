import pg from "pg";
import { databaseUrl } from "../config.ts";
import { logger } from "../log.ts";
import { auditConnections } from "./audit-context.ts";

const globalForPool = globalThis as unknown as { __licensingPool?: pg.Pool };

/**
 * The process-wide PostgreSQL pool. The Prisma client runs on it (server/db/client.ts), and the
 * runtime lane's hot paths (docs/architecture.md section 11) query it directly with named prepared statements,
 * so one process holds one set of connections.
 */
export function pgPool(): pg.Pool {
  globalForPool.__licensingPool ??= createPgPool(databaseUrl(), 20);
  return globalForPool.__licensingPool;
}

/** A pool as every part of the service needs it: the process's, or a script's or test's own. */
export function createPgPool(connectionString: string, max: number): pg.Pool {
  // Every connection carries the audit context of the work using it (audit-context.ts).
  // Pipeline mode (pg 8.23): a statement is sent without waiting for the one before it to finish,
  // so a transaction can send several in one round trip (server/db/sql.ts). Work that awaits each
  // statement, as Prisma's adapter does, runs exactly as without it.
  const pool = auditConnections(new pg.Pool({ connectionString, max, pipeline: true } as pg.PoolConfig));
  // An idle connection the server drops (a restart, a dropped database) must not crash the
  // process; the pool replaces it on the next checkout.
  pool.on("error", (error) => logger.warn({ err: error.message }, "idle database connection lost"));
  // A checked-out connection has no pool listener: when the server goes away between two of its
  // statements (a PostgreSQL restart mid-activation), its "error" event would be an uncaught
  // exception. The work using it still fails (its next statement rejects) and answers 503.
  pool.on("connect", (client) =>
    client.on("error", (error) => logger.warn({ err: error.message }, "database connection lost in use")),
  );
  return pool;
}
