// npm run test:cluster (issue 26; docs/operations.md "Cluster test"): three web hosts and two
// worker hosts, each a network namespace running the compiled production entries, a private
// PostgreSQL and Debian's HAProxy in front; a mixed load through HAProxy while a worker host and a
// web host are killed with -9, PostgreSQL restarts and every web host is restarted one by one;
// then the checks of checks.ts, rate-burst.ts and retries.ts, printed with their figures.
// Needs root (ip netns) and Linux; exits 1 when a check fails.
import "./env.ts";
import { mkdirSync, rmSync } from "node:fs";
import pg from "pg";
import { ensureBuild } from "../helpers/test-server.ts";
import { createDb } from "../../server/db/client.ts";
import {
  activationChecks,
  faultChecks,
  meteringChecks,
  webhookChecks,
  printChecks,
  webhooksSettled,
  type Check,
} from "./checks.ts";
import { Client } from "./client.ts";
import { stopRun, killWeb, killWorker, restartDatabase, rollingRestart, type Window } from "./faults.ts";
import { seed } from "./fixtures.ts";
import { ensureHaproxy, startHaproxy, type Haproxy } from "./haproxy.ts";
import { hostEnv, migrateDatabase, startHosts, type Host } from "./hosts.ts";
import { MixedLoad } from "./load.ts";
import { createNetwork, GATEWAY, killNamespaces, removeNetwork } from "./network.ts";
import { databaseUrl, removePostgres, startPostgres } from "./postgres.ts";
import { startReceiver, type Receiver } from "./receiver.ts";
import { idempotentRetries } from "./retries.ts";
import { rateBurst } from "./rate-burst.ts";
import { exitWith, sleep } from "./shell.ts";

const LB_PORT = 18026;
const logDir = "/tmp/lc26-logs";
rmSync(logDir, { recursive: true, force: true });
const started = Date.now();
const log = (line: string) =>
  process.stderr.write(`[cluster ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);

async function main(): Promise<boolean> {
  if (process.getuid?.() !== 0) throw new Error("the cluster test needs root (ip netns, veth, runuser)");
  ensureHaproxy();
  log("build (dist/ and .next/, skipped when current)");
  ensureBuild();
  mkdirSync(logDir, { recursive: true });

  const names = ["web1", "web2", "web3", "worker1", "worker2"];
  const hosts: Host[] = createNetwork(names).map((net) => ({
    ...net,
    kind: net.name.startsWith("web") ? "web" : "worker",
    starts: 0,
  }));
  log(`network: bridge ${GATEWAY}/24, hosts ${hosts.map((h) => `${h.name}=${h.address}`).join(" ")}`);
  startPostgres();
  const url = databaseUrl();
  const publicUrl = `http://127.0.0.1:${LB_PORT}`;
  const env = hostEnv(url, publicUrl);
  migrateDatabase(env);
  log("PostgreSQL up and migrated; starting hosts");

  let haproxy: Haproxy | undefined;
  let receiver: Receiver | undefined;
  const sql = new pg.Client({ connectionString: url });
  const db = createDb(url, { max: 4 });
  let load: MixedLoad | undefined;
  try {
    receiver = await startReceiver(GATEWAY);
    haproxy = await startHaproxy(
      LB_PORT,
      hosts.filter((h) => h.kind === "web"),
      3000,
      logDir,
    );
    await startHosts(hosts, env, logDir, haproxy);
    log("every web host ready behind HAProxy; seeding");
    const client = new Client(haproxy.url);
    const data = await seed(db, client, receiver);
    load = new MixedLoad(client, data);
    await load.start(6, 25);
    log("mixed load running");
    await sleep(8_000);
    const ctx = { hosts, haproxy, env, logDir, log };
    const windows: Window[] = [];
    windows.push(await killWorker(ctx));
    await sleep(3_000);
    windows.push(await killWeb(ctx));
    await sleep(3_000);
    windows.push(await restartDatabase(ctx));
    await sleep(3_000);
    windows.push(await rollingRestart(ctx));
    await sleep(3_000);
    await load.stop();
    log(`load stopped: ${client.calls.length} calls`);
    // Connected only now: PostgreSQL's restart above would have cut it.
    await sql.connect();

    const checks: Check[] = [];
    checks.push(await rateBurst(haproxy.url, data));
    checks.push(await idempotentRetries(client, sql, load, data));
    log("waiting for webhook deliveries to finish");
    await webhooksSettled(sql, data.tenantId, data.subscriptionId);
    checks.push(...(await activationChecks(sql, load, data)));
    checks.push(...(await meteringChecks(sql, load, data)));
    checks.push(await webhookChecks(sql, data, receiver));
    checks.push(...faultChecks(client.calls, windows));
    client.close();

    process.stdout.write(
      `\ncluster test: 3 web hosts, 2 worker hosts, HAProxy, PostgreSQL; ${((Date.now() - started) / 1000).toFixed(0)} s in all\n`,
    );
    process.stdout.write(`host starts: ${hosts.map((h) => `${h.name} ${h.starts}`).join(", ")}\n`);
    return printChecks(checks);
  } finally {
    await stopRun({ load, hosts, haproxy, receiver, sql, db });
    if (process.env.CLUSTER_KEEP !== "1") {
      removeNetwork();
      removePostgres();
    }
  }
}

// Whatever ends this process, no host outlives it.
process.on("exit", killNamespaces);

exitWith(main, log, logDir);
