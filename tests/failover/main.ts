// npm run test:failover (docs/operations.md "Failover test"): PostgreSQL under Patroni (two nodes,
// synchronous replication, one etcd), HAProxy routing the service's database connections to
// whichever node Patroni's REST API calls the primary, two web hosts and a worker host running
// the compiled production entries, and the cluster test's mixed load. Under that load the
// leader's postmaster is killed (Patroni restarts it in place), then the leader node is killed
// twice (Patroni and PostgreSQL, kill -9: a failover each time, the old leader started again to
// rejoin as a replica). Checks: every failed attempt is 503 service.unavailable with Retry-After,
// the service answers again within RECOVERY_BOUND_MS of each kill, every answered write is in the
// new leader's database exactly once, the replica holds the same rows, and each old leader
// rejoined as the synchronous standby. Needs root (ip netns); exits 1 when a check fails.
import "../cluster/env.ts";
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
} from "../cluster/checks.ts";
import { Client } from "../cluster/client.ts";
import { allWebUp, stopRun, windowed, type FaultContext, type Window } from "../cluster/faults.ts";
import { seed } from "../cluster/fixtures.ts";
import { ensureHaproxy, startHaproxy, type Haproxy } from "../cluster/haproxy.ts";
import { hostEnv, migrateDatabase, startHosts, type Host } from "../cluster/hosts.ts";
import { MixedLoad } from "../cluster/load.ts";
import { createNetwork, GATEWAY, killNamespaces, removeNetwork, selectNetwork } from "../cluster/network.ts";
import { startReceiver, type Receiver } from "../cluster/receiver.ts";
import { idempotentRetries } from "../cluster/retries.ts";
import { ensureCommand, exitWith, sleep, waitFor } from "../cluster/shell.ts";
import { databaseListener, DB_PORT } from "./database-listener.ts";
import { recoveryCheck, rejoinCheck, replicaCheck, type Failover, type Outage } from "./failover-checks.ts";
import {
  isPrimary,
  killNode,
  killPostmaster,
  leaderOf,
  LOOP_WAIT,
  members,
  patroniStatus,
  prepareRoot,
  removeRoot,
  startEtcd,
  startPatroni,
  TTL,
  waitEtcd,
  waitSynchronous,
  type PgNode,
} from "./patroni.ts";

// Its own bridge, subnet and namespaces: it can run beside the cluster test.
selectNetwork("lcfo", "10.227.0");
const LB_PORT = 18027;
const DATABASE = "licensing_failover";
/**
 * How long after a kill the service may take to answer again: the leader key's TTL (it expires
 * TTL after the dead leader's last renewal, so at most TTL after the kill), the standby's next
 * loop (LOOP_WAIT), its promotion (~2 s), HAProxy's next database check (1 s, rise 1), the web
 * hosts' readiness back up if they were taken out (rise 2 × 1 s: readiness checks the database),
 * a client's Retry-After (1 s), and 7 s for a two-core machine under load, where Patroni's loop
 * and the promotion both run late.
 */
export const RECOVERY_BOUND_MS = (TTL + LOOP_WAIT + 2 + 1 + 2 + 1 + 7) * 1000;
const logDir = "/tmp/licensing-failover-logs";
rmSync(logDir, { recursive: true, force: true });
const started = Date.now();
const log = (line: string) =>
  process.stderr.write(`[failover ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);

/** Until HAProxy's database listener has the node UP (its Patroni answered /primary 200 once). */
const databaseRoutedTo = (haproxy: Haproxy, node: PgNode) =>
  waitFor(
    `haproxy: ${node.name} UP for the database`,
    async () => (await haproxy.serverStates("db"))[node.name]?.startsWith("UP") ?? false,
    60_000,
    100,
  );

/** Kill -9 of the leader node (Patroni and PostgreSQL), then it is started again and must rejoin. */
async function failover(ctx: FaultContext, nodes: PgNode[], etcd: Host, haproxy: Haproxy): Promise<Failover> {
  const leader = await leaderOf(nodes);
  if (!leader) throw new Error("no leader to kill");
  const standby = nodes.find((n) => n !== leader)!;
  const f: Failover = {
    label: `failover ${leader.name} → ${standby.name}`,
    from: leader.name,
    to: standby.name,
    killedAt: 0,
    primaryAt: 0,
    routedAt: 0,
    rejoined: [],
  };
  const w = await windowed(
    `PostgreSQL failover: kill -9 of ${leader.name} (Patroni and PostgreSQL)`,
    ctx,
    async (notes) => {
      f.killedAt = Date.now();
      notes.push(`${leader.name}: ${killNode(leader)} processes killed`);
      await waitFor(`${standby.name} primary`, () => isPrimary(standby), 120_000, 100);
      f.primaryAt = Date.now();
      await databaseRoutedTo(haproxy, standby);
      f.routedAt = Date.now();
      notes.push(
        `${standby.name} primary after ${((f.primaryAt - f.killedAt) / 1000).toFixed(1)} s, routed by HAProxy after ${((f.routedAt - f.killedAt) / 1000).toFixed(1)} s`,
      );
      // The service's own recovery is read from the load's answers; give it time to show.
      await sleep(10_000);
      startPatroni(leader, etcd, logDir);
      f.rejoined = await waitSynchronous(nodes, 180_000);
      notes.push(`${leader.name} rejoined after ${((Date.now() - f.killedAt) / 1000).toFixed(1)} s`);
      await allWebUp(ctx);
    },
  );
  f.window = w;
  return f;
}

/** kill -9 of the leader's postmaster only: its Patroni, still holding the key, starts it again. */
async function postmasterRestart(ctx: FaultContext, nodes: PgNode[], haproxy: Haproxy): Promise<Outage> {
  const leader = await leaderOf(nodes);
  if (!leader) throw new Error("no leader");
  const before = (await patroniStatus(leader))?.postmaster_start_time;
  const o: Outage = { label: `postmaster of ${leader.name} killed`, killedAt: 0, primaryAt: 0, routedAt: 0 };
  o.window = await windowed(
    `PostgreSQL: kill -9 of the leader's postmaster (${leader.name}; Patroni starts it again)`,
    ctx,
    async (notes) => {
      o.killedAt = Date.now();
      notes.push(`${leader.name}: postmaster ${killPostmaster(leader)} killed`);
      await waitFor(
        `${leader.name}'s PostgreSQL started again`,
        async () => {
          const now = await patroniStatus(leader);
          return now?.state === "running" && now.postmaster_start_time !== before;
        },
        120_000,
        100,
      );
      o.primaryAt = Date.now();
      await databaseRoutedTo(haproxy, leader);
      o.routedAt = Date.now();
      notes.push(
        `PostgreSQL up again after ${((o.primaryAt - o.killedAt) / 1000).toFixed(1)} s; leader ${(await leaderOf(nodes))?.name}`,
      );
      await sleep(10_000);
      await waitSynchronous(nodes, 180_000);
      await allWebUp(ctx);
    },
  );
  return o;
}

async function main(): Promise<boolean> {
  if (process.getuid?.() !== 0) throw new Error("the failover test needs root (ip netns, veth, runuser)");
  ensureHaproxy();
  ensureCommand("patroni", ["patroni", "python3-etcd"]);
  ensureCommand("etcd", ["etcd-server"]);
  log("build (dist/ and .next/, skipped when current)");
  ensureBuild();
  mkdirSync(logDir, { recursive: true });

  const [pg1, pg2, etcdNet, ...serviceNets] = createNetwork([
    "pg1",
    "pg2",
    "etcd",
    "web1",
    "web2",
    "worker1",
  ]);
  const nodes: PgNode[] = [
    { ...pg1, starts: 0 },
    { ...pg2, starts: 0 },
  ];
  const etcd: Host = { ...etcdNet, kind: "worker", starts: 0 };
  const hosts: Host[] = serviceNets.map((net) => ({
    ...net,
    kind: net.name.startsWith("web") ? "web" : "worker",
    starts: 0,
  }));
  log(
    `network: bridge ${GATEWAY}/24, ${[...nodes, etcd, ...hosts].map((h) => `${h.name}=${h.address}`).join(" ")}`,
  );
  prepareRoot();

  let haproxy: Haproxy | undefined;
  let receiver: Receiver | undefined;
  let load: MixedLoad | undefined;
  const url = `postgresql://postgres@${GATEWAY}:${DB_PORT}/${DATABASE}`;
  const db = createDb(url, { max: 4 });
  const sql = new pg.Client({ connectionString: url });
  // A connection cut under it (HAProxy going at teardown) is an 'error' event: without a
  // listener it would end the process before the cleanup below.
  sql.on("error", (error) => log(`harness connection: ${error.message}`));
  try {
    startEtcd(etcd, logDir);
    await waitEtcd(etcd);
    startPatroni(nodes[0], etcd, logDir);
    await waitFor("pg1 primary", () => isPrimary(nodes[0]), 120_000, 500);
    startPatroni(nodes[1], etcd, logDir);
    await waitSynchronous(nodes, 180_000);
    log(`Patroni: ${JSON.stringify((await members(nodes)).map((m) => `${m.name} ${m.role}`))}`);

    const publicUrl = `http://127.0.0.1:${LB_PORT}`;
    haproxy = await startHaproxy(
      LB_PORT,
      hosts.filter((h) => h.kind === "web"),
      3000,
      logDir,
      { dir: "/tmp/lcfo-haproxy", moreConfig: databaseListener(GATEWAY, nodes) },
    );
    // HAProxy counts a server up until its first checks say otherwise: until then it would send
    // connections to the standby too.
    await waitFor(
      "haproxy: pg1 UP and pg2 DOWN for the database",
      async () => {
        const states = await haproxy!.serverStates("db");
        return (states.pg1?.startsWith("UP") && states.pg2?.startsWith("DOWN")) ?? false;
      },
      30_000,
    );
    const admin = new pg.Client({ connectionString: `postgresql://postgres@${GATEWAY}:${DB_PORT}/postgres` });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    const env = hostEnv(url, publicUrl);
    migrateDatabase(env);
    log("database created and migrated through HAProxy; starting hosts");

    receiver = await startReceiver(GATEWAY);
    await startHosts(hosts, env, logDir, haproxy);
    const ctx: FaultContext = { hosts, haproxy, env, logDir, log };
    log("every web host ready behind HAProxy; seeding");
    const client = new Client(haproxy.url);
    const data = await seed(db, client, receiver);
    load = new MixedLoad(client, data);
    await load.start(6, 25);
    log("mixed load running");
    await sleep(8_000);

    const windows: Window[] = [];
    const restart = await postmasterRestart(ctx, nodes, haproxy);
    windows.push(restart.window!);
    await sleep(5_000);
    const failovers: Failover[] = [];
    for (let i = 0; i < 2; i++) {
      failovers.push(await failover(ctx, nodes, etcd, haproxy));
      windows.push(failovers[i].window!);
      await sleep(5_000);
    }
    await load.stop();
    log(`load stopped: ${client.calls.length} calls`);
    await sql.connect();

    const checks: Check[] = [];
    checks.push(await idempotentRetries(client, sql, load, data));
    log("waiting for webhook deliveries to finish");
    await webhooksSettled(sql, data.tenantId, data.subscriptionId);
    checks.push(...(await activationChecks(sql, load, data)));
    checks.push(...(await meteringChecks(sql, load, data)));
    checks.push(await webhookChecks(sql, data, receiver));
    checks.push(...faultChecks(client.calls, windows));
    checks.push(...[restart, ...failovers].map((f) => recoveryCheck(client.calls, f, RECOVERY_BOUND_MS)));
    checks.push(...failovers.map((f) => rejoinCheck(f, logDir)));
    checks.push(await replicaCheck(nodes, DATABASE, data.tenantId));
    client.close();

    const loadAverage = (await import("node:os")).loadavg().map((n) => n.toFixed(1));
    process.stdout.write(
      `\nfailover test: Patroni (pg1, pg2, synchronous) + etcd, HAProxy, 2 web hosts, 1 worker host; ${((Date.now() - started) / 1000).toFixed(0)} s in all; load average ${loadAverage.join(" ")}\n`,
    );
    process.stdout.write(
      `Patroni ttl ${TTL} s, loop_wait ${LOOP_WAIT} s; recovery bound ${RECOVERY_BOUND_MS / 1000} s; node starts: ${nodes.map((n) => `${n.name} ${n.starts}`).join(", ")}\n`,
    );
    return printChecks(checks);
  } finally {
    await stopRun({ load, hosts, haproxy, receiver, sql, db });
    if (process.env.FAILOVER_KEEP !== "1") {
      removeNetwork();
      removeRoot();
    }
  }
}

// Whatever ends this process, no host, PostgreSQL node or etcd outlives it.
process.on("exit", () => {
  if (process.env.FAILOVER_KEEP !== "1") killNamespaces();
});

exitWith(main, log, logDir);
