import { AsyncLocalStorage } from "node:async_hooks";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/client.ts";
import { joinable, tenantDb, type TenantTx } from "./tenant-db.ts";

/**
 * Prisma inside a transaction that `pg` opened (server/db/sql.ts, SqlTx.prisma). The runtime lane's hot paths run
 * on `pg` directly (docs/architecture.md section 11); when one of them must call a domain function written for
 * Prisma in the same transaction (emitting an outbox event on a rare path, say), this runs it on
 * the very connection, inside a SAVEPOINT: the adapter's BEGIN / COMMIT / ROLLBACK become
 * SAVEPOINT / RELEASE / ROLLBACK TO on the caller's connection, so the work commits or rolls back
 * with the caller's transaction and nothing else.
 */
const current = new AsyncLocalStorage<pg.PoolClient>();

const SAVEPOINT = "prisma_bridge";
const translated: Record<string, string> = {
  BEGIN: `SAVEPOINT ${SAVEPOINT}`,
  COMMIT: `RELEASE SAVEPOINT ${SAVEPOINT}`,
  ROLLBACK: `ROLLBACK TO SAVEPOINT ${SAVEPOINT}`,
};

function borrowed(client: pg.PoolClient) {
  const query = (config: string | pg.QueryConfig, values?: unknown[]) => {
    const text = typeof config === "string" ? config : config.text;
    const swap = translated[text.trim().toUpperCase()];
    if (swap) return client.query(swap);
    return typeof config === "string" ? client.query(config, values) : client.query(config);
  };
  return {
    query,
    release: () => undefined,
    on: () => undefined,
    removeListener: () => undefined,
  };
}

function bridgePool(): pg.Pool {
  // The adapter only uses a pool's connect() and query(); this one lends the caller's connection.
  const pool = new pg.Pool({ max: 1 });
  const active = () => {
    const client = current.getStore();
    if (!client) throw new Error("withPrismaOnPgClient: no pg transaction is active.");
    return client;
  };
  Object.assign(pool, {
    connect: async () => borrowed(active()),
    query: (config: string | pg.QueryConfig, values?: unknown[]) => borrowed(active()).query(config, values),
  });
  return pool;
}

const globalForBridge = globalThis as unknown as { __licensingBridgeDb?: PrismaClient };

function bridgeDb(): PrismaClient {
  globalForBridge.__licensingBridgeDb ??= new PrismaClient({ adapter: new PrismaPg(bridgePool()) });
  return globalForBridge.__licensingBridgeDb;
}

/** Runs `fn` with a tenant-scoped Prisma transaction on `client`, inside `client`'s open transaction. */
export function withPrismaOnPgClient<T>(
  client: pg.PoolClient,
  tenantId: string,
  fn: (tx: TenantTx) => Promise<T>,
): Promise<T> {
  return current.run(client, () => tenantDb(bridgeDb(), tenantId).$transaction((tx) => fn(joinable(tx))));
}
