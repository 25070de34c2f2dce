// The production web process (npm start, npm run web; docs/architecture.md section 11): a node:http server
// that answers the runtime lane (server/web/runtime-routes.ts) by calling those route modules'
// handlers itself and hands every other request to Next.js. Next.js runs in a child process
// (server/web/next-process.ts) reached over a local socket, so the process-wide hooks it installs
// never tax the lane (docs/decisions.md "Next.js in a child process of the web process"). This process stamps
// the caller's TCP address on every request (server/web/peer-address.ts) and, on SIGTERM or
// SIGINT, stops accepting connections, lets the requests under way finish, then stops Next.js.
// Its limits (timeouts, connection cap, sockets to Next.js) are server/config.ts's webLimits().
//   node dist/web/main.js --port 3000 --host 0.0.0.0   (npm run build compiles it)
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { pgPool } from "../db/pool.ts";
import { flushLogs, logger } from "../log.ts";
import { armPeerStamp, stampPeerAddress } from "./peer-address.ts";
import { runtimeRouteFor, serveRuntime } from "./runtime-lane.ts";
import { nextProxy } from "./next-proxy.ts";
import { countObservation } from "../http/metrics.ts";
import { flushRefusals } from "../domain/cross-tenant.ts";
import { nextReady, serveLink } from "./web-link.ts";
import { isOriginForm, refuseTarget } from "./request-target.ts";
import { webLimits } from "../config.ts";
import { packageRoot } from "../core/package-root.ts";

/** Requests under way get this long after a shutdown signal; what remains is cut off. */
const drainTimeoutMs = 25_000;
/** Next.js gets this long to stop once the requests are done. */
const nextStopMs = 5_000;

const { values } = parseArgs({
  options: { port: { type: "string" }, host: { type: "string" } },
});
const port = Number(values.port ?? process.env.PORT ?? 3000);
const host = values.host ?? "0.0.0.0";
const log = logger.child({ component: "web" });
const limits = webLimits();

const stamp = armPeerStamp();
const socketPath = path.join(
  tmpdir(),
  `licensing-next-${process.pid}-${randomBytes(4).toString("hex")}.sock`,
);
// From source, server/web/next-process.ts; compiled (this code then sits in a chunk of dist/), dist/web/next-process.js.
const fromSource = path.extname(fileURLToPath(import.meta.url)) === ".ts";
const nextEntry = path.join(
  packageRoot(import.meta.url),
  fromSource ? "server/web/next-process.ts" : "dist/web/next-process.js",
);
const nextProcess = fork(nextEntry, [], {
  execArgv: process.execArgv,
  env: { ...process.env, LICENSING_NEXT_SOCKET: socketPath, LICENSING_PEER_STAMP: stamp },
  stdio: "inherit",
});
let stopping = false;
// A signal before this process serves (Next.js still preparing) stops the child and exits at once:
// there is nothing to drain yet. Replaced by the draining shutdown below once the port listens.
const stopWhileStarting = () => {
  stopping = true;
  nextProcess.kill("SIGTERM");
  process.exit(0);
};
process.once("SIGTERM", stopWhileStarting);
process.once("SIGINT", stopWhileStarting);
nextProcess.once("exit", (code, signal) => {
  rmSync(socketPath, { force: true });
  if (stopping) return;
  log.error({ code, signal }, "the Next.js process exited; stopping");
  process.exit(1);
});
await nextReady(nextProcess);
const toNext = nextProxy(socketPath, limits.nextMaxSockets);
serveLink(nextProcess, {
  observe: ({ at, ...o }) => countObservation({ ...o, at: new Date(at) }),
  flushRefusals,
});

function notReady(res: ServerResponse): void {
  const body = JSON.stringify({ ready: false, draining: true });
  res
    .writeHead(503, {
      "content-type": "application/json",
      "cache-control": "no-store",
      "content-length": String(Buffer.byteLength(body)),
    })
    .end(body);
}

/** Responses not yet finished: on shutdown each is told to close its connection after it. */
const underWay = new Set<ServerResponse>();

function onRequest(req: IncomingMessage, res: ServerResponse): void {
  underWay.add(res);
  res.once("close", () => underWay.delete(res));
  // A client that is told the server is stopping opens its next request elsewhere.
  if (stopping) res.setHeader("connection", "close");
  if (!isOriginForm(req.url)) return refuseTarget(res);
  // Draining: the load balancer's readiness probe learns it first, while requests are still served.
  if (stopping && (req.url === "/api/ready" || req.url?.startsWith("/api/ready?"))) return notReady(res);
  stampPeerAddress(req.headers, req.socket.remoteAddress);
  const runtime = runtimeRouteFor(req);
  const served = runtime ? serveRuntime(req, res, runtime) : toNext(req, res);
  served.catch((error: unknown) => {
    log.error({ err: error, url: req.url, method: req.method }, "request failed outside its handler");
    if (!res.headersSent) res.writeHead(500).end();
    else res.destroy();
  });
}

const server = createServer(
  {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // How often the timeouts above are checked (Node's default, 30 s, would let them overrun).
    connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
  },
  onRequest,
);
server.maxConnections = limits.maxConnections;
server.listen(port, host, () => log.info({ port, host }, "web process listening"));

async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal, inFlight: underWay.size }, "stopping: draining requests under way");
  for (const res of underWay) if (!res.headersSent) res.setHeader("connection", "close");
  // Keep serving (readiness answering 503) until the load balancer has taken this process out.
  if (limits.drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, limits.drainDelayMs));
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections without a request under way are closed at once, and each connection
  // that finishes its request afterwards as soon as it is idle.
  server.closeIdleConnections();
  const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
  const deadline = setTimeout(() => {
    log.warn(
      { inFlight: underWay.size },
      "requests still under way at the drain deadline; closing their connections",
    );
    server.closeAllConnections();
  }, drainTimeoutMs);
  await closed;
  clearInterval(idleSweep);
  clearTimeout(deadline);
  if (nextProcess.exitCode === null && nextProcess.signalCode === null) {
    const exited = new Promise((resolve) => nextProcess.once("exit", resolve));
    nextProcess.kill("SIGTERM");
    const late = setTimeout(() => nextProcess.kill("SIGKILL"), nextStopMs);
    await exited;
    clearTimeout(late);
  }
  await pgPool()
    .end()
    .catch(() => undefined);
  log.info("web process stopped");
  await flushLogs();
  process.exit(0);
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.off(signal, stopWhileStarting);
  process.on(signal, () => void shutdown(signal));
}
