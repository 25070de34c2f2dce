import { AsyncLocalStorage } from "node:async_hooks";
import type pg from "pg";

/**
 * Who is changing things, for the audit trail (docs/decisions.md "Audit trail"). The REST wrapper,
 * the tRPC mutation middleware and the CLI run their work inside `runAudited`; every transaction
 * that work opens on the process pool then carries the context as the transaction-local setting
 * `licensing.audit`, and the row triggers of migration 20261124152000 write one AuditEvent per
 * changed row in that same transaction. Work outside a context (the worker, the runtime lane)
 * carries none and is not audited here.
 */
export type AuditContext = {
  actorKind: "user" | "client" | "license" | "system";
  actorId: string;
  actorLabel?: string | null;
  source: "rest" | "trpc" | "cli";
  /** The request as its transport names it: `POST /api/v1/provision/admin/tags/{id}`, `tags.merge`, `user set-role`. */
  operation: string;
  correlationId?: string | null;
  /** The service clock's time of the request (server/clock.ts), so tests that move the clock see it. */
  at?: string;
};

const current = new AsyncLocalStorage<string>();

/**
 * Runs `fn` (and everything it awaits) as audited work of `context`. Awaited inside the context, so
 * a lazy thenable (a Prisma query runs only when awaited) also starts inside it.
 */
export function runAudited<T>(context: AuditContext, fn: () => T | Promise<T>): Promise<T> {
  return current.run(JSON.stringify(context), async () => await fn());
}

export function auditContext(): AuditContext | undefined {
  const raw = current.getStore();
  return raw ? (JSON.parse(raw) as AuditContext) : undefined;
}

const SET_CONTEXT = "SELECT set_config('licensing.audit', $1, true)";
const patched = Symbol("licensing.auditPatched");
const inTransaction = Symbol("licensing.inTransaction");
const pendingContext = Symbol("licensing.pendingAuditContext");

type AuditedClient = pg.PoolClient & {
  [patched]?: true;
  [inTransaction]?: boolean;
  /** Set at BEGIN, sent before the transaction's first statement that is not SET TRANSACTION. */
  [pendingContext]?: string;
};

/** SET TRANSACTION (isolation, READ ONLY) must be a transaction's first statement: the context waits. */
const isSetTransaction = (text: string) => /^\s*SET\s+(TRANSACTION|SESSION\s+CHARACTERISTICS)\b/i.test(text);
type QueryArgs = [config: unknown, values?: unknown, callback?: unknown];
type QueryCallback = (error: Error | null, result?: pg.QueryResult) => void;

/** Statement heads that open or end a transaction; everything else runs inside one or on its own. */
function transactionEdge(text: string): "begin" | "end" | null {
  const head = text.trimStart().slice(0, 24).toUpperCase();
  if (head.startsWith("BEGIN") || head.startsWith("START TRANSACTION")) return "begin";
  if (head.startsWith("COMMIT") || head.startsWith("END") || head.startsWith("ABORT")) return "end";
  if (head.startsWith("ROLLBACK") && !/^ROLLBACK\s+TO\b/.test(head)) return "end";
  return null;
}

const isRead = (text: string) =>
  /^\s*(SELECT|SHOW)\b/i.test(text) && !/\bFOR\s+(NO\s+KEY\s+)?UPDATE\b/i.test(text);

/**
 * Makes every connection of `pool` carry the audit context of the work that uses it: a BEGIN of
 * audited work sets `licensing.audit` for that transaction (just before its first statement, after
 * any SET TRANSACTION); a statement that may write and runs
 * outside a transaction is run inside a short one that carries it (so an autocommit write is
 * audited in its own transaction too). Without a context (the runtime lane, the worker) a
 * statement costs one AsyncLocalStorage lookup more.
 */
export function auditConnections(pool: pg.Pool): pg.Pool {
  // pool.query runs its statement inside pg-pool's connect callback, which may fire in another
  // request's async context (a connection another caller released): with a context, check a
  // connection out here instead, so the statement is sent from this work's own context.
  const poolQuery = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as { query: unknown }).query = (...args: QueryArgs) => {
    const context = current.getStore();
    const [config] = args;
    const text = typeof config === "string" ? config : (config as { text?: string } | null)?.text;
    if (!context || typeof text !== "string" || isRead(text)) return poolQuery(...args);
    const callback = typeof args[args.length - 1] === "function" ? (args.pop() as QueryCallback) : null;
    const work = (async () => {
      const client = await pool.connect();
      try {
        return (await client.query(...(args.filter((a) => a !== undefined) as [string]))) as pg.QueryResult;
      } finally {
        client.release();
      }
    })();
    if (!callback) return work;
    work.then(
      (result) => callback(null, result),
      (error: Error) => callback(error),
    );
    return undefined;
  };
  pool.on("connect", (client: AuditedClient) => {
    if (client[patched]) return;
    client[patched] = true;
    const original = client.query.bind(client) as (...args: unknown[]) => unknown;
    const run = (...args: QueryArgs) =>
      original(...args.filter((a) => a !== undefined)) as Promise<pg.QueryResult>;
    (client as { query: unknown }).query = (...args: QueryArgs) => {
      const [config] = args;
      const text = typeof config === "string" ? config : (config as { text?: string } | null)?.text;
      if (typeof text !== "string") return original(...args);
      const edge = transactionEdge(text);
      if (edge === "end") {
        client[inTransaction] = false;
        client[pendingContext] = undefined;
      }
      const context = current.getStore();
      if (edge === "begin") {
        client[inTransaction] = true;
        client[pendingContext] = context;
      }
      const pending = client[pendingContext];
      if (edge === null && pending && !isSetTransaction(text)) {
        client[pendingContext] = undefined;
        const callback = typeof args[args.length - 1] === "function" ? (args.pop() as QueryCallback) : null;
        const work = run(SET_CONTEXT, [pending]).then(() => run(...args));
        if (!callback) return work;
        work.then(
          (result) => callback(null, result),
          (error: Error) => callback(error),
        );
        return undefined;
      }
      if (!context || edge !== null) return original(...args);
      const callback = typeof args[args.length - 1] === "function" ? (args.pop() as QueryCallback) : null;
      let work: Promise<pg.QueryResult>;
      if (client[inTransaction] || isRead(text)) {
        return callback ? original(...args, callback) : original(...args);
      } else {
        work = (async () => {
          await run("BEGIN");
          try {
            await run(SET_CONTEXT, [context]);
            const result = await run(...args);
            await run("COMMIT");
            return result;
          } catch (error) {
            await run("ROLLBACK").catch(() => undefined);
            throw error;
          }
        })();
      }
      if (!callback) return work;
      work.then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
      return undefined;
    };
  });
  return pool;
}
