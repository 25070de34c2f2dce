// The cluster's hosts: each a network namespace running one production entry from the compiled
// output, exactly as an operator starts it (docs/operations.md "Process model"):
// `node scripts/production.mjs start --web` (web hosts) or `start --worker` (worker hosts).
// kill -9 of a host kills every process in its namespace; a graceful stop is SIGTERM to the
// host's supervisor, which forwards it and exits once its processes have drained.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { openSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../helpers/test-server.ts";
import { CLUSTER_APP_SECRET } from "./env.ts";
import type { Haproxy } from "./haproxy.ts";
import { pidsIn, type HostNet } from "./network.ts";
import { waitFor } from "./shell.ts";

export const WEB_PORT = 3000;

export type Host = HostNet & { kind: "web" | "worker"; process?: ChildProcess; starts: number };

export function hostEnv(databaseUrl: string, publicUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: databaseUrl,
    APP_SECRET: CLUSTER_APP_SECRET,
    NEXTAUTH_SECRET: "cluster-nextauth-secret-0123456789abcdef",
    NEXTAUTH_URL: publicUrl,
    PUBLIC_URL: publicUrl,
    PORT: String(WEB_PORT),
    // Two cores run three web hosts, two workers, PostgreSQL, HAProxy and the load: one web
    // process per host (node:cluster itself is covered by tests/int/platform/cross-process.int.test.ts).
    WEB_CONCURRENCY: "1",
    // Above HAProxy's inter 1 s × fall 3 plus a slow check or two (docs/operations.md "Rolling restart").
    WEB_DRAIN_DELAY_MS: "8000",
    TRUSTED_PROXY_HOPS: "1",
    WEBHOOKS_ALLOW_PRIVATE_URLS: "1",
    // Retries come quickly, so a delivery cut by a fault is retried within the run.
    WEBHOOKS_RETRY_SCALE: "0.01",
    // The load comes from one address: the service-wide limits are counted but out of reach; the
    // rate-limit check sets a low one for its own tenant.
    RATE_LIMITS: ["activation.ip", "activation.code", "token.client", "token.failed_secret", "usage.session"]
      .map((name) => `${name}=1000000/60`)
      .join(","),
    LOG_LEVEL: "warn",
  };
  // start.ts binds to $HOSTNAME when it names another machine; hosts listen on every address.
  delete env.HOSTNAME;
  return env;
}

/** `production.mjs migrate` against the hosts' DATABASE_URL, as an operator runs it before starting them. */
export function migrateDatabase(env: NodeJS.ProcessEnv): void {
  const migrated = spawnSync(process.execPath, ["scripts/production.mjs", "migrate"], {
    cwd: repoRoot,
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (migrated.status !== 0) throw new Error("migrate failed");
}

/** Starts every host, then waits until each web host is ready on its own and up behind HAProxy. */
export async function startHosts(
  hosts: Host[],
  env: NodeJS.ProcessEnv,
  logDir: string,
  haproxy: Haproxy,
): Promise<void> {
  for (const host of hosts) startHost(host, env, logDir);
  await Promise.all(hosts.filter((h) => h.kind === "web").map((h) => waitReady(h)));
  await waitFor(
    "haproxy: every web host up",
    async () => Object.values(await haproxy.serverStates()).every((s) => s.startsWith("UP")),
    30_000,
  );
}

export function startHost(host: Host, env: NodeJS.ProcessEnv, logDir: string): void {
  const log = openSync(path.join(logDir, `${host.name}.log`), "a");
  host.starts++;
  host.process = spawn(
    "ip",
    [
      "netns",
      "exec",
      host.namespace,
      process.execPath,
      "--enable-source-maps",
      "scripts/production.mjs",
      "start",
      host.kind === "web" ? "--web" : "--worker",
    ],
    { cwd: repoRoot, env, stdio: ["ignore", log, log] },
  );
}

/** Until the host's web process answers /api/ready 200 (checked from the machine, over the bridge). */
export async function waitReady(host: Host, timeoutMs = 180_000): Promise<void> {
  await waitFor(
    `${host.name} ready`,
    async () =>
      (await fetch(`http://${host.address}:${WEB_PORT}/api/ready`, { signal: AbortSignal.timeout(2_000) }))
        .status === 200,
    timeoutMs,
    250,
  );
}

/** kill -9 of every process of the host (supervisor, web process, Next.js child or worker). */
export async function killHost(host: Host): Promise<number> {
  const pids = pidsIn(host.namespace);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await waitFor(`${host.name} gone`, () => pidsIn(host.namespace).length === 0, 10_000, 50);
  host.process = undefined;
  return pids.length;
}

/** SIGTERM to the host's supervisor; resolves with its exit code once every process of the host is gone. */
export async function stopHost(host: Host, timeoutMs = 60_000): Promise<number | null> {
  const child = host.process;
  if (!child || child.exitCode !== null) return child?.exitCode ?? null;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  const code = await Promise.race([
    exited,
    new Promise<"late">((r) => setTimeout(() => r("late"), timeoutMs)),
  ]);
  if (code === "late") throw new Error(`${host.name} did not stop within ${timeoutMs} ms`);
  await waitFor(`${host.name} gone`, () => pidsIn(host.namespace).length === 0, 10_000, 50);
  host.process = undefined;
  return code;
}
