import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.ts";
import { createPgPool, pgPool } from "./pool.ts";

export type Db = PrismaClient;

const globalForDb = globalThis as unknown as { __licensingDb?: Db };

export function createDb(connectionString: string, options: { max?: number } = {}): Db {
  const adapter = new PrismaPg(createPgPool(connectionString, options.max ?? 20));
  return new PrismaClient({ adapter });
}

/** The process-wide Prisma client, on the process-wide pool (kept across dev hot reloads). */
export function db(): Db {
  globalForDb.__licensingDb ??= new PrismaClient({ adapter: new PrismaPg(pgPool()) });
  return globalForDb.__licensingDb;
}

/**
 * Whether `base` is the process-wide client (its pool is `pgPool()`), not a client a script or
 * test made on a pool of its own: raw-`pg` work for it may then run on `pgPool()` directly.
 */
export const isProcessDb = (base: Db): boolean => globalForDb.__licensingDb === base;
