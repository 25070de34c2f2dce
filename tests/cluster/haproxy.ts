// Debian's HAProxy in front of the web hosts, as docs/operations.md "Load balancer" asks: health
// checks on /api/ready every second (down after 3 failures, up after 2 passes; a check may take
// 5 s, since on a loaded two-core machine readiness can take seconds), connection failures
// and empty answers retried on another server, X-Forwarded-For appended (TRUSTED_PROXY_HOPS=1).
// Installed with apt when missing (the CI machine runs as root).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, openSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { ensureCommand, waitFor } from "./shell.ts";

const defaultDir = "/tmp/lc26-haproxy";

export const ensureHaproxy = () => ensureCommand("haproxy", ["haproxy"]);

/**
 * HAProxy's own answer when no web host is up: the service's 503 problem (docs/api.md "Errors")
 * with Retry-After, so a client treats it like a web process's `service.unavailable`; the
 * `x-cluster-lb` header lets the test tell the two apart.
 */
const noServer = [
  "HTTP/1.1 503 Service Unavailable",
  "content-type: application/problem+json",
  "retry-after: 1",
  "cache-control: no-store",
  "x-cluster-lb: no-server",
  "connection: close",
  "",
  JSON.stringify({
    type: "about:blank",
    title: "Service temporarily unavailable",
    status: 503,
    code: 1050,
    codeName: "service.unavailable",
    detail: "No web host is ready",
    instance: "/",
  }),
].join("\r\n");

function config(
  port: number,
  servers: { name: string; address: string }[],
  webPort: number,
  dir: string,
): string {
  return `global
  maxconn 4096
  stats socket ${path.join(dir, "stats.sock")} mode 600 level admin

defaults
  mode http
  # One line per request (status, server, timings, termination state) in the run's log directory.
  log stdout format raw local0 info
  option httplog
  timeout connect 2s
  timeout check 5s
  timeout client 60s
  timeout server 30s
  # Longer than any pause of the load: an idle client connection is never closed under a request.
  timeout http-keep-alive 60s
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response
  option forwardfor
  errorfile 503 ${path.join(dir, "503.http")}

frontend api
  bind 127.0.0.1:${port}
  default_backend web

backend web
  balance roundrobin
  option httpchk GET /api/ready
  http-check expect status 200
  http-response set-header x-cluster-server %s
  # Idle server connections are purged well within the web process's keep-alive timeout (5 s).
  default-server inter 1s fall 3 rise 2 check pool-purge-delay 1s
${servers.map((s) => `  server ${s.name} ${s.address}:${webPort}`).join("\n")}
`;
}

export type Haproxy = {
  url: string;
  stop: () => Promise<void>;
  /** Each server's state ("UP", "DOWN 1/2", …) in a backend (or listen section), the web hosts' by default. */
  serverStates: (backend?: string) => Promise<Record<string, string>>;
};

export async function startHaproxy(
  port: number,
  servers: { name: string; address: string }[],
  webPort: number,
  logDir: string,
  options: { dir?: string; moreConfig?: string } = {},
): Promise<Haproxy> {
  const dir = options.dir ?? defaultDir;
  const statsSocket = path.join(dir, "stats.sock");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  writeFileSync(path.join(dir, "503.http"), noServer);
  writeFileSync(
    path.join(dir, "haproxy.cfg"),
    config(port, servers, webPort, dir) + (options.moreConfig ?? ""),
  );
  const log = openSync(path.join(logDir, "haproxy.log"), "a");
  const child: ChildProcess = spawn("haproxy", ["-db", "-f", path.join(dir, "haproxy.cfg")], {
    stdio: ["ignore", log, log],
  });
  // HAProxy is a child of this process: it goes when this process goes, however that happens.
  process.on("exit", () => child.kill("SIGKILL"));
  const serverStates = async (backend = "web") => {
    const csv = await statsCommand(statsSocket, "show stat");
    const states: Record<string, string> = {};
    for (const line of csv.split("\n")) {
      const f = line.split(",");
      if (f[0] === backend && f[1] !== "BACKEND" && f[1] !== "FRONTEND") states[f[1]] = f[17];
    }
    return states;
  };
  await waitFor(
    "haproxy's stats socket",
    async () => Object.keys(await serverStates()).length === servers.length,
    10_000,
  );
  return {
    url: `http://127.0.0.1:${port}`,
    serverStates,
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

function statsCommand(statsSocket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(statsSocket);
    let out = "";
    socket.on("data", (chunk) => (out += chunk.toString()));
    socket.on("end", () => resolve(out));
    socket.on("error", reject);
    socket.end(`${command}\n`);
  });
}
