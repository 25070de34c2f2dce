// CPU time of the processes under test, from /proc (Linux), so a scenario can say whether the web
// process or PostgreSQL is the one that is busy: CPU ms per request for each.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import pg from "pg";

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

export type ProcInfo = { pid: number; ppid: number; cpuMs: number };

export function readProcs(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the parenthesized command name: state ppid ... utime(14) stime(15).
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.push({ pid: Number(entry), ppid: Number(fields[1]), cpuMs: ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000 });
    } catch {
      // the process ended while we read
    }
  }
  return out;
}

/** The process listening on the port (found by its socket's inode: `next start` renames itself, so not by its command line). */
function listenerPid(port: number): number | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; column 9 is the inode.
      if (cols.length > 9 && cols[1].endsWith(`:${hexPort}`) && cols[3] === "0A") inodes.add(cols[9]);
    }
  }
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${entry}/fd/${fd}`);
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode && inodes.has(inode)) return Number(entry);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

/** The web server listening on the port and every process under it. */
function serverPids(procs: ProcInfo[], port: number): number[] {
  const root = listenerPid(port);
  if (root === undefined) return [];
  const pids = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of procs) {
      if (pids.has(p.ppid) && !pids.has(p.pid)) {
        pids.add(p.pid);
        grew = true;
      }
    }
  }
  return [...pids];
}

export type CpuShare = { serverCpuMsPerRequest: number; postgresCpuMsPerRequest: number; serverCoresBusy: number };

/**
 * Runs `fn` and answers its result with the CPU the web server and this database's PostgreSQL
 * backends spent meanwhile, per request. A backend that started during the run counts from zero.
 */
export async function withCpu<T extends { requests: number; durationS: number }>(databaseUrl: string, port: number, fn: () => Promise<T>): Promise<T & { cpu: CpuShare }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const backends = async () => (await client.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")).rows.map((r) => r.pid);
  try {
    const before = new Map(readProcs().map((p) => [p.pid, p.cpuMs]));
    const result = await fn();
    const procs = readProcs();
    const byPid = new Map(procs.map((p) => [p.pid, p.cpuMs]));
    const spent = (pids: number[]) => pids.reduce((sum, pid) => sum + Math.max(0, (byPid.get(pid) ?? 0) - (before.get(pid) ?? 0)), 0);
    const serverMs = spent(serverPids(procs, port));
    const postgresMs = spent(await backends());
    const perRequest = (ms: number) => Math.round((ms / Math.max(1, result.requests)) * 100) / 100;
    return { ...result, cpu: { serverCpuMsPerRequest: perRequest(serverMs), postgresCpuMsPerRequest: perRequest(postgresMs), serverCoresBusy: Math.round((serverMs / (result.durationS * 1000)) * 100) / 100 } };
  } finally {
    await client.end();
  }
}
