// The failover test's database (docs/operations.md "Failover test"): Debian's Patroni managing two
// PostgreSQL nodes (pg1, pg2), each in its own network namespace, with one etcd in a third as the
// store that holds the leader key. The machine's PostgreSQL binaries, nothing of the machine's own
// server: every data directory lives under ROOT and is removed after the run.
//
// Synchronous replication (synchronous_mode, not strict): a commit is acknowledged only once the
// synchronous standby has flushed it, and Patroni promotes only that standby, so a commit the
// service answered survives the loss of the leader. Not strict: with one node left, the leader
// goes on alone (asynchronously) instead of refusing every write until the other returns.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pidsIn, SUBNET_PREFIX, type HostNet } from "../cluster/network.ts";
import { binDir } from "../cluster/postgres.ts";
import { sh, waitFor } from "../cluster/shell.ts";

export const ROOT = "/tmp/licensing-failover";
export const PG_PORT = 5432;
export const REST_PORT = 8008;
/** Patroni answers 200 here on the leader only: what HAProxy routes the database by. */
export const PG_REST_CHECK = "/primary";
const ETCD_PORT = 2379;

/**
 * Patroni's timing, which decides how long a switch takes. The leader renews its key every
 * LOOP_WAIT; the key expires TTL after its last renewal, and the standby takes it on its next loop
 * (≤ LOOP_WAIT) and promotes. Patroni requires TTL ≥ LOOP_WAIT + 2 × RETRY_TIMEOUT, so that a
 * leader that cannot reach etcd demotes itself before its key can expire.
 */
export const TTL = 10;
export const LOOP_WAIT = 2;
export const RETRY_TIMEOUT = 4;

export type PgNode = HostNet & { process?: ChildProcess; starts: number };
export type Member = { name: string; role: string; state: string; lag?: number | string; timeline?: number };

const nodeDir = (node: HostNet) => path.join(ROOT, node.name);
export const dataDir = (node: HostNet) => path.join(nodeDir(node), "data");

export function prepareRoot(): void {
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(ROOT, { recursive: true });
}

export function removeRoot(): void {
  rmSync(ROOT, { recursive: true, force: true });
}

export function startEtcd(host: HostNet, logDir: string): ChildProcess {
  const dir = path.join(ROOT, "etcd");
  mkdirSync(dir, { recursive: true });
  const peer = `http://${host.address}:2380`;
  const client = `http://${host.address}:${ETCD_PORT}`;
  const log = openSync(path.join(logDir, "etcd.log"), "a");
  return spawn(
    "ip",
    [
      "netns",
      "exec",
      host.namespace,
      "etcd",
      "--name=etcd1",
      `--data-dir=${dir}`,
      `--listen-client-urls=${client}`,
      `--advertise-client-urls=${client}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=etcd1=${peer}`,
      "--initial-cluster-state=new",
      "--initial-cluster-token=licensing-failover",
    ],
    { stdio: ["ignore", log, log] },
  );
}

export async function waitEtcd(host: HostNet): Promise<void> {
  await waitFor(
    "etcd healthy",
    async () => (await fetch(`http://${host.address}:${ETCD_PORT}/health`)).ok,
    30_000,
  );
}

function patroniConfig(node: PgNode, etcd: HostNet): object {
  const subnet = `${SUBNET_PREFIX}.0/24`;
  return {
    scope: "licensing",
    namespace: "/licensing-failover/",
    name: node.name,
    log: { level: "INFO" },
    restapi: { listen: `${node.address}:${REST_PORT}`, connect_address: `${node.address}:${REST_PORT}` },
    etcd3: { hosts: [`${etcd.address}:${ETCD_PORT}`] },
    bootstrap: {
      dcs: {
        ttl: TTL,
        loop_wait: LOOP_WAIT,
        retry_timeout: RETRY_TIMEOUT,
        maximum_lag_on_failover: 1048576,
        synchronous_mode: true,
        synchronous_mode_strict: false,
        postgresql: {
          use_pg_rewind: true,
          use_slots: true,
          parameters: {
            // 2 web hosts × (web process + Next.js child) × 2 pools × 20 + a worker + the harness.
            max_connections: 300,
            wal_log_hints: "on",
            wal_keep_size: "256MB",
            max_wal_senders: 5,
            max_replication_slots: 5,
          },
        },
      },
      initdb: [{ encoding: "UTF8" }, { "auth-local": "trust" }],
    },
    postgresql: {
      listen: `${node.address}:${PG_PORT}`,
      connect_address: `${node.address}:${PG_PORT}`,
      data_dir: dataDir(node),
      bin_dir: binDir(),
      pgpass: path.join(nodeDir(node), "pgpass"),
      authentication: {
        superuser: { username: "postgres", password: "postgres" },
        replication: { username: "replicator", password: "replicator" },
      },
      parameters: { unix_socket_directories: nodeDir(node) },
      // Trust on the test's own bridge only: nothing else can reach it.
      pg_hba: [
        "local all all trust",
        "local replication all trust",
        `host all all ${subnet} trust`,
        `host replication replicator ${subnet} trust`,
      ],
    },
  };
}

/** Starts Patroni (as the postgres user, in the node's namespace); it bootstraps, clones or rejoins by itself. */
export function startPatroni(node: PgNode, etcd: HostNet, logDir: string): void {
  const dir = nodeDir(node);
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o700);
  sh("chown", ["postgres:postgres", dir]);
  // JSON is YAML: Patroni reads it as its configuration file.
  const file = path.join(dir, "patroni.yml");
  writeFileSync(file, JSON.stringify(patroniConfig(node, etcd), null, 2));
  sh("chown", ["postgres:postgres", file]);
  const log = openSync(path.join(logDir, `${node.name}.log`), "a");
  node.starts++;
  node.process = spawn(
    "ip",
    ["netns", "exec", node.namespace, "runuser", "-u", "postgres", "--", "patroni", file],
    { stdio: ["ignore", log, log], cwd: dir },
  );
}

/** Patroni's view of the cluster, asked of the first node that answers. */
export async function members(nodes: PgNode[]): Promise<Member[]> {
  for (const node of nodes) {
    try {
      const res = await fetch(`http://${node.address}:${REST_PORT}/cluster`, {
        signal: AbortSignal.timeout(2_000),
      });
      if (res.ok) return ((await res.json()) as { members: Member[] }).members;
    } catch {
      // that node is down: ask the next
    }
  }
  return [];
}

/** The node's Patroni status (GET /patroni), undefined while it does not answer. */
export async function patroniStatus(
  node: PgNode,
): Promise<{ state: string; role: string; postmaster_start_time?: string } | undefined> {
  try {
    const res = await fetch(`http://${node.address}:${REST_PORT}/patroni`, {
      signal: AbortSignal.timeout(1_000),
    });
    return (await res.json()) as { state: string; role: string; postmaster_start_time?: string };
  } catch {
    return undefined;
  }
}

/** Whether the node's Patroni answers /primary 200 (what HAProxy's check asks). */
export async function isPrimary(node: PgNode): Promise<boolean> {
  try {
    const res = await fetch(`http://${node.address}:${REST_PORT}/primary`, {
      signal: AbortSignal.timeout(1_000),
    });
    return res.status === 200;
  } catch {
    return false;
  }
}

/** Until one node leads and the other is its synchronous standby (Patroni 3.0 says "running", later ones "streaming"). */
export async function waitSynchronous(nodes: PgNode[], timeoutMs: number): Promise<Member[]> {
  let seen: Member[] = [];
  await waitFor(
    "a leader and a streaming synchronous standby",
    async () => {
      seen = await members(nodes);
      return (
        seen.some((m) => m.role === "leader" && m.state === "running") &&
        seen.some((m) => m.role === "sync_standby" && ["running", "streaming"].includes(m.state))
      );
    },
    timeoutMs,
    500,
  );
  return seen;
}

export const leaderOf = async (nodes: PgNode[]) => {
  const leader = (await members(nodes)).find((m) => m.role === "leader");
  return nodes.find((n) => n.name === leader?.name);
};

/** kill -9 of every process of the node: Patroni and PostgreSQL (the host died). */
export function killNode(node: PgNode): number {
  const pids = pidsIn(node.namespace);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  node.process = undefined;
  return pids.length;
}

/** kill -9 of the node's postmaster only: its Patroni stays and restarts it. */
export function killPostmaster(node: PgNode): number {
  const pid = Number(readFileSync(path.join(dataDir(node), "postmaster.pid"), "utf8").split("\n")[0]);
  process.kill(pid, "SIGKILL");
  return pid;
}

/** Whether the node's Patroni log says it ran pg_rewind, and how that ended. */
export function rewindLines(node: HostNet, logDir: string): string[] {
  const file = path.join(logDir, `${node.name}.log`);
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => /pg_rewind|rewind/i.test(line))
    .map((line) => line.slice(0, 200));
}
