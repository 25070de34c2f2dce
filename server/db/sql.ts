import type pg from "pg";
import { retryOnConflict } from "./errors.ts";
import { inPgTransaction, pgPool } from "./pool.ts";
import { withPrismaOnPgClient } from "./pg-prisma-bridge.ts";
import { isOpenTransaction, type TenantDbOrTx, type TenantTx } from "./tenant-db.ts";

/** A statement of the runtime lane: a constant text with `$n` parameters and a process-wide name. */
export type Statement = { name: string; text: string };

/**
 * The transaction a runtime-lane domain function runs in (DESIGN.md section 11, "Lean SQL"): on
 * its own, a connection of the process pool with named prepared statements; inside a caller's
 * Prisma transaction (the route's Idempotency-Key transaction), that very transaction, so one
 * request never holds two connections (docs/security.md "Idempotent session calls").
 */
export type SqlTx = {
  query<R>(statement: Statement, values: unknown[]): Promise<R[]>;
  /** Prisma in the same transaction, for a rare path written for it (a savepoint on the pg connection). */
  prisma<T>(fn: (tx: TenantTx) => Promise<T>): Promise<T>;
};

function onPgClient(client: pg.PoolClient, tenantId: string): SqlTx {
  return {
    query: async <R>(statement: Statement, values: unknown[]) =>
      (await client.query({ name: statement.name, text: statement.text, values })).rows as R[],
    prisma: (fn) => withPrismaOnPgClient(client, tenantId, fn),
  };
}

function onPrismaTx(tx: TenantTx): SqlTx {
  return {
    query: <R>(statement: Statement, values: unknown[]) =>
      tx.$queryRawUnsafe<R[]>(statement.text, ...values) as Promise<R[]>,
    prisma: (fn) => fn(tx),
  };
}

/**
 * Runs `fn` in a transaction of `db`'s tenant: the caller's when `db` is one, else a pg
 * transaction of its own (run again when PostgreSQL picks it as a deadlock victim).
 */
export function inSqlTransaction<T>(
  db: TenantDbOrTx,
  tenantId: string,
  fn: (sql: SqlTx) => Promise<T>,
): Promise<T> {
  if (isOpenTransaction(db)) return fn(onPrismaTx(db as TenantTx));
  return retryOnConflict(() => inPgTransaction((client) => fn(onPgClient(client, tenantId))));
}

/**
 * Statements that each run on their own (autocommit) on a connection of the process pool: a
 * runtime call that is one statement whole pays no BEGIN and COMMIT round trips (DESIGN.md
 * section 11). A statement PostgreSQL picks as a deadlock victim runs again.
 */
export const autocommitSql: Pick<SqlTx, "query"> = {
  query: <R>(statement: Statement, values: unknown[]) =>
    retryOnConflict(
      async () => (await pgPool().query({ name: statement.name, text: statement.text, values })).rows as R[],
    ),
};
