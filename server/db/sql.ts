import type pg from "pg";
import { retryOnConflict } from "./errors.ts";
import type { Writable } from "node:stream";
import { pgPool } from "./pool.ts";
import { auditContext } from "./audit-context.ts";
import { withPrismaOnPgClient } from "./pg-prisma-bridge.ts";
import { poolOf, type Db } from "./client.ts";
import { baseOf, isOpenTransaction, type TenantDbOrTx, type TenantTx } from "./tenant-db.ts";

/** A statement of the runtime lane: a constant text with `$n` parameters and a process-wide name. */
export type Statement = { name: string; text: string };

/**
 * The transaction a runtime-lane domain function runs in (docs/architecture.md section 11, "Lean SQL"): on
 * its own, a connection of the process pool with named prepared statements; inside a caller's
 * Prisma transaction (the route's Idempotency-Key transaction), that very transaction, so one
 * request never holds two connections (docs/security.md "Keyed session calls exhausted the connection pool").
 */
export type SqlTx = {
  query<R>(statement: Statement, values: unknown[]): Promise<R[]>;
  /**
   * Statements sent in one round trip (pipelined), run one after the other: a statement's snapshot
   * is taken when it starts, so one behind a locking read sees what the lock's previous holder
   * committed. Their rows, in order; the first failure is thrown.
   */
  queries(statements: [Statement, unknown[]][]): Promise<unknown[][]>;
  /**
   * The transaction's last statement, with its COMMIT in the same round trip: the locks it holds
   * are released without another trip. In a caller's transaction it is an ordinary statement.
   */
  queryAndCommit<R>(statement: Statement, values: unknown[]): Promise<R[]>;
  /** Prisma in the same transaction, for a rare path written for it (a savepoint on the pg connection). */
  prisma<T>(fn: (tx: TenantTx) => Promise<T>): Promise<T>;
};

type Sent = Statement | string;
const named = (statement: Sent, values: unknown[]) =>
  typeof statement === "string" ? statement : { name: statement.name, text: statement.text, values };

/** The first failure in order (a statement behind a failed one only says the transaction is aborted). */
async function settleInOrder(sent: Promise<pg.QueryResult>[]): Promise<pg.QueryResult[]> {
  const settled = await Promise.allSettled(sent);
  const failed = settled.find((r) => r.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return settled.map((r) => (r as PromiseFulfilledResult<pg.QueryResult>).value);
}

/**
 * A transaction on a pool connection whose BEGIN goes out with its first statements and whose
 * COMMIT goes out with its last (queryAndCommit): an activation is three round trips, not five
 * (docs/architecture.md section 11, "the fewest round trips"). The pool's connections run in pg's pipeline
 * mode (server/db/pool.ts); the statements of one trip are corked into one socket write. Audited
 * work (an operator's offline issue) sends them one by one instead: its context is set before
 * the transaction's first statement (server/db/audit-context.ts), which a pipeline would overtake.
 */
class PgTransaction implements SqlTx {
  private state: "idle" | "open" | "done" = "idle";

  constructor(
    private readonly client: pg.PoolClient,
    private readonly tenantId: string,
  ) {}

  private async send(statements: [Sent, unknown[]][], commit: boolean): Promise<pg.QueryResult[]> {
    const begin = this.state === "idle";
    const trip: [Sent, unknown[]][] = [
      ...(begin ? [["BEGIN", []] as [Sent, unknown[]]] : []),
      ...statements,
      ...(commit ? [["COMMIT", []] as [Sent, unknown[]]] : []),
    ];
    this.state = commit ? "done" : "open";
    let results: pg.QueryResult[];
    if (auditContext()) {
      results = [];
      for (const [statement, values] of trip) results.push(await this.client.query(named(statement, values)));
    } else {
      const stream = (this.client as unknown as { connection?: { stream?: Partial<Writable> } }).connection
        ?.stream;
      stream?.cork?.();
      let sent: Promise<pg.QueryResult>[];
      try {
        sent = trip.map(([statement, values]) => this.client.query(named(statement, values)));
      } finally {
        stream?.uncork?.();
      }
      results = await settleInOrder(sent);
    }
    return results.slice(begin ? 1 : 0, commit ? -1 : undefined);
  }

  async query<R>(statement: Statement, values: unknown[]): Promise<R[]> {
    return (await this.send([[statement, values]], false))[0].rows as R[];
  }

  async queries(statements: [Statement, unknown[]][]): Promise<unknown[][]> {
    return (await this.send(statements, false)).map((r) => r.rows);
  }

  async queryAndCommit<R>(statement: Statement, values: unknown[]): Promise<R[]> {
    return (await this.send([[statement, values]], true))[0].rows as R[];
  }

  async prisma<T>(fn: (tx: TenantTx) => Promise<T>): Promise<T> {
    if (this.state === "idle") await this.send([], false);
    return withPrismaOnPgClient(this.client, this.tenantId, fn);
  }

  /** Commits what is still open. */
  async finish(): Promise<void> {
    if (this.state === "open") await this.client.query("COMMIT");
    this.state = "done";
  }

  /** Rolls back what is still open (a COMMIT sent behind a failed statement already did). */
  async abort(): Promise<void> {
    if (this.state === "open") await this.client.query("ROLLBACK").catch(() => undefined);
    this.state = "done";
  }
}

function onPrismaTx(tx: TenantTx): SqlTx {
  const query = <R>(statement: Statement, values: unknown[]) =>
    tx.$queryRawUnsafe<R[]>(statement.text, ...values) as Promise<R[]>;
  return {
    query,
    queries: async (statements) => {
      const rows: unknown[][] = [];
      for (const [statement, values] of statements) rows.push(await query(statement, values));
      return rows;
    },
    queryAndCommit: query,
    prisma: (fn) => fn(tx),
  };
}

/**
 * The one way raw SQL runs (docs/architecture.md section 11, "Lean SQL"), reached from the client a domain
 * function was given (`ctx.db`, or a cross-tenant `Db`): statements run on that client's own pool
 * (the process pool, or a script's or test's), so the runtime lane and metering need no global.
 */
export type Sql = {
  /**
   * One statement on its own (autocommit) on a connection of the pool, also under a caller's
   * transaction: a runtime call that is one statement whole pays no BEGIN and COMMIT round trips.
   * A statement PostgreSQL picks as a deadlock victim runs again.
   */
  query<R>(statement: Statement, values: unknown[]): Promise<R[]>;
  /**
   * Runs `fn` in a transaction of `tenantId`: the caller's when the client is one (unless
   * `own`), else a pg transaction of its own on a pool connection (run again when PostgreSQL
   * picks it as a deadlock victim).
   */
  transaction<T>(tenantId: string, fn: (sql: SqlTx) => Promise<T>, options?: { own?: boolean }): Promise<T>;
};

function poolSql(pool: pg.Pool): Sql {
  return {
    query: <R>(statement: Statement, values: unknown[]) =>
      retryOnConflict(
        async () => (await pool.query({ name: statement.name, text: statement.text, values })).rows as R[],
      ),
    transaction: (tenantId, fn) =>
      retryOnConflict(async () => {
        const client = await pool.connect();
        const tx = new PgTransaction(client, tenantId);
        try {
          const result = await fn(tx);
          await tx.finish();
          return result;
        } catch (error) {
          await tx.abort();
          throw error;
        } finally {
          client.release();
        }
      }),
  };
}

const handles = new WeakMap<pg.Pool, Sql>();

/** The SQL handle of a pool (a worker's or test's own). */
export function sqlOnPool(pool: pg.Pool): Sql {
  let handle = handles.get(pool);
  if (!handle) handles.set(pool, (handle = poolSql(pool)));
  return handle;
}

/** The process pool's handle: for work that runs before any client is chosen (the rate limiter). */
export const processSql = (): Sql => sqlOnPool(pgPool());

/** The SQL handle of `db`: its pool's (a transaction of a caller: the process pool's, joining it). */
export function sqlOf(db: Db | TenantDbOrTx): Sql {
  const base = isOpenTransaction(db) ? undefined : baseOf(db);
  const own = sqlOnPool((base && poolOf(base)) ?? pgPool());
  if (!isOpenTransaction(db)) return own;
  return {
    query: own.query,
    transaction: (tenantId, fn, options) =>
      options?.own ? own.transaction(tenantId, fn) : fn(onPrismaTx(db as TenantTx)),
  };
}

/** sqlOf(db).transaction: the runtime lane's transactions. */
export const inSqlTransaction = <T>(db: TenantDbOrTx, tenantId: string, fn: (sql: SqlTx) => Promise<T>) =>
  sqlOf(db).transaction(tenantId, fn);
