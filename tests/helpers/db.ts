import type { Db } from "../../server/db/client.ts";

/**
 * URL of the freshly migrated test database that the int project's globalSetup
 * (tests/helpers/global-setup.ts) provides.
 */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL_MIGRATED;
  if (!url)
    throw new Error(
      "TEST_DATABASE_URL_MIGRATED is not set: run integration tests with `npm run test:int` (its globalSetup prepares the database).",
    );
  return url;
}

const processWide = globalThis as unknown as { __licensingPool?: unknown; __licensingDb?: Db };

/**
 * Points the process-wide client (server/db/pool.ts and client.ts: what job handlers and other
 * domain code without a handed client use) at `url` for one test file, and returns what puts the
 * previous one back. Test files share their worker process (vitest.config.ts `isolate: false`), so
 * a file that swapped it and left it would hand the next file its own, perhaps dropped, database.
 */
export function useProcessDatabase(url: string): () => Promise<void> {
  const saved = {
    url: process.env.DATABASE_URL,
    pool: processWide.__licensingPool,
    db: processWide.__licensingDb,
  };
  process.env.DATABASE_URL = url;
  delete processWide.__licensingPool;
  delete processWide.__licensingDb;
  return async () => {
    const own = processWide.__licensingDb;
    const ownPool = processWide.__licensingPool as { end(): Promise<void> } | undefined;
    await own?.$disconnect();
    await ownPool?.end();
    if (saved.url === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved.url;
    processWide.__licensingPool = saved.pool;
    processWide.__licensingDb = saved.db;
  };
}
