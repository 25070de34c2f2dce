import { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";
import { PrismaClient } from "./generated/client.ts";
import { createPgPool, pgPool } from "./pool.ts";

export type Db = PrismaClient;

const globalForDb = globalThis as unknown as { __licensingDb?: Db };

/** Each client's pool: raw SQL of a client (server/db/sql.ts) runs on the very connections its Prisma queries use. */
const pools = new WeakMap<Db, pg.Pool>();

/** A client on a pool the caller made (a bench's instrumented one): its raw SQL runs there too. */
export function clientOn(pool: pg.Pool): Db {
  const client = new PrismaClient({ adapter: new PrismaPg(pool) });
  pools.set(client, pool);
  return client;
}

export function createDb(connectionString: string, options: { max?: number } = {}): Db {
  return clientOn(createPgPool(connectionString, options.max ?? 20));
}

/** The process-wide Prisma client, on the process-wide pool (kept across dev hot reloads). */
export function db(): Db {
  globalForDb.__licensingDb ??= clientOn(pgPool());
  return globalForDb.__licensingDb;
}

/**
 * Disconnects a client made by createDb and ends its pool: Prisma leaves a pool it was handed
 * open, and its idle connections kept a finished command running for another 10 s.
 */
export async function closeDb(base: Db): Promise<void> {
  await base.$disconnect();
  await pools.get(base)?.end();
}

/** The pool a client made here runs on. */
export const poolOf = (base: Db): pg.Pool | undefined => pools.get(base);
