import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.ts";
import { databaseUrl } from "../config.ts";

export type Db = PrismaClient;

const globalForDb = globalThis as unknown as { __licensingDb?: Db };

export function createDb(connectionString: string, options: { max?: number } = {}): Db {
  const adapter = new PrismaPg({ connectionString, max: options.max ?? 20 });
  return new PrismaClient({ adapter });
}

/** The process-wide Prisma client (one pool per process; kept across dev hot reloads). */
export function db(): Db {
  globalForDb.__licensingDb ??= createDb(databaseUrl());
  return globalForDb.__licensingDb;
}
