import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { Logger, runMigrations as runWorkerMigrations } from "graphile-worker";

/**
 * Resolved from the working directory (npm scripts and `next start` run from the project root):
 * inside the Next.js bundle import.meta.url no longer points into the source tree.
 */
export const migrationsDir =
  process.env.MIGRATIONS_DIR ?? path.join(/* turbopackIgnore: true */ process.cwd(), "prisma/migrations");

/** Prisma Migrate's own lock id, so our runner and `prisma migrate deploy` never run at once. */
const PRISMA_ADVISORY_LOCK = 72707369;

const createMigrationsTable = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export type MigrationFile = { name: string; sql: string; checksum: string };

export async function listMigrations(dir = migrationsDir): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

/**
 * Applies pending migrations exactly as `prisma migrate deploy` would and records them in
 * `_prisma_migrations` the same way, then installs graphile-worker's schema. Refuses to continue
 * when an applied migration's file changed or a previous run failed half-way.
 */
export async function migrate(
  databaseUrl: string,
  options: { log?: (line: string) => void; dir?: string } = {},
): Promise<string[]> {
  const log = options.log ?? (() => {});
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK]);
    await client.query(createMigrationsTable);
    const { rows } = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
    }>(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`);
    const done = new Map(rows.filter((r) => r.rolled_back_at === null).map((r) => [r.migration_name, r]));
    for (const migration of await listMigrations(options.dir)) {
      const previous = done.get(migration.name);
      if (previous?.finished_at) {
        if (previous.checksum !== migration.checksum) {
          log(`warning: migration ${migration.name} was modified after it was applied`);
        }
        continue;
      }
      if (previous)
        throw new Error(`Migration ${migration.name} failed earlier; resolve it before migrating again.`);
      const id = randomUUID();
      await client.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)`,
        [id, migration.checksum, migration.name],
      );
      try {
        await client.query("BEGIN");
        await client.query(migration.sql);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        await client.query(`UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1`, [id, String(error)]);
        throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`);
      }
      await client.query(
        `UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`,
        [id],
      );
      applied.push(migration.name);
      log(`applied migration ${migration.name}`);
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK]).catch(() => undefined);
    await client.end();
  }
  await runWorkerMigrations({ connectionString: databaseUrl, logger: quietWorkerLogger });
  return applied;
}

/** Names of migrations not yet applied; /api/ready answers 503 while any remain. */
export async function pendingMigrations(
  query: (sql: string) => Promise<{ migration_name: string }[]>,
): Promise<string[]> {
  const files = await listMigrations();
  const rows = await query(
    `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const done = new Set(rows.map((r) => r.migration_name));
  return files.map((f) => f.name).filter((n) => !done.has(n));
}

const quietWorkerLogger = new Logger(() => () => {});
