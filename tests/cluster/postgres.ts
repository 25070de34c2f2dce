// The cluster's PostgreSQL: a private cluster of the machine's PostgreSQL binaries (Debian's
// postgresql package), made for this run in a temporary directory and removed after it. Private
// because the test restarts it under load (a fault) and listens on the bridge address: doing either
// to the machine's shared server at 127.0.0.1:5432 would break every other test running against it.
import { existsSync, readdirSync, rmSync, appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { GATEWAY, SUBNET_PREFIX } from "./network.ts";
import { sh, sleep } from "./shell.ts";

export const PG_PORT = 54326;
export const DATABASE = "licensing_cluster";
const dataDir = "/tmp/licensing-cluster-pg";

/** The newest of the machine's PostgreSQL versions (Debian's layout). */
export function binDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)) : [];
  if (!versions.length)
    throw new Error("no PostgreSQL binaries under /usr/lib/postgresql (apt-get install postgresql)");
  return path.join(root, versions.sort((a, b) => Number(b) - Number(a))[0], "bin");
}

const asPostgres = (tool: string, args: string[], allowFail = false) =>
  sh("runuser", ["-u", "postgres", "--", path.join(binDir(), tool), ...args], { allowFail });

/** URL the hosts use (over the bridge); the harness uses the same one from the machine's namespace. */
export const databaseUrl = (database = DATABASE) => `postgresql://postgres@${GATEWAY}:${PG_PORT}/${database}`;

const options = [
  `-p ${PG_PORT}`,
  `-k ${dataDir}`,
  `-c listen_addresses=127.0.0.1,${GATEWAY}`,
  // 3 web hosts × (web process + Next.js child) × 2 pools × 20 + 2 workers × ~30 + the harness.
  "-c max_connections=400",
  // Nothing here survives the run: durability against a machine crash is not what is tested
  // (a restart is a clean shutdown and loses no committed transaction either way).
  "-c fsync=off",
  "-c full_page_writes=off",
].join(" ");

export function startPostgres(): void {
  stopPostgres();
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir);
  sh("chown", ["postgres:postgres", dataDir]);
  asPostgres("initdb", ["-D", dataDir, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
  appendFileSync(path.join(dataDir, "pg_hba.conf"), `host all all ${SUBNET_PREFIX}.0/24 trust\n`);
  asPostgres("pg_ctl", ["-D", dataDir, "-l", path.join(dataDir, "server.log"), "-o", options, "-w", "start"]);
  asPostgres("psql", [
    "-h",
    dataDir,
    "-p",
    String(PG_PORT),
    "-U",
    "postgres",
    "-qc",
    `CREATE DATABASE ${DATABASE}`,
  ]);
}

/** A fast shutdown (every connection cut, as a restart by an operator or a crash-restart does), a pause, a start. */
export async function restartPostgres(downMs: number): Promise<void> {
  asPostgres("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]);
  await sleep(downMs);
  asPostgres("pg_ctl", ["-D", dataDir, "-l", path.join(dataDir, "server.log"), "-o", options, "-w", "start"]);
}

export function stopPostgres(): void {
  if (existsSync(path.join(dataDir, "postmaster.pid")))
    asPostgres("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"], true);
}

export function removePostgres(): void {
  stopPostgres();
  rmSync(dataDir, { recursive: true, force: true });
}
