// The production web process (npm start, npm run web; DESIGN.md section 11): a node:http server
// that answers the runtime lane (server/http/runtime-routes.ts) by calling those route modules'
// handlers itself and hands every other request to Next.js (a Next.js custom server). It stamps
// the caller's TCP address on every request (server/http/peer-address.ts) and, on SIGTERM or
// SIGINT, stops accepting connections and lets the requests under way finish before it exits.
//   node --import tsx server/web.ts --port 3000 --host 0.0.0.0
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import next from "next";
import { pgPool } from "./db/pool.ts";
import { flushLogs, logger } from "./log.ts";
import { armPeerStamp, stampPeerAddress } from "./http/peer-address.ts";
import { runtimeRouteFor, serveRuntime } from "./http/runtime-lane.ts";

/** Requests under way get this long after a shutdown signal; what remains is cut off. */
const drainTimeoutMs = 25_000;

const { values } = parseArgs({
  options: { port: { type: "string" }, host: { type: "string" } },
});
const port = Number(values.port ?? process.env.PORT ?? 3000);
const host = values.host ?? "0.0.0.0";
const log = logger.child({ component: "web" });

armPeerStamp();
const app = next({
  dev: false,
  dir: fileURLToPath(new URL("..", import.meta.url)),
  hostname: host,
  port,
  customServer: true,
});
await app.prepare();
const nextHandler = app.getRequestHandler();

/** Responses not yet finished: on shutdown each is told to close its connection after it. */
const underWay = new Set<ServerResponse>();
let stopping = false;

function onRequest(req: IncomingMessage, res: ServerResponse): void {
  underWay.add(res);
  res.once("close", () => underWay.delete(res));
  // A client that is told the server is stopping opens its next request elsewhere.
  if (stopping) res.setHeader("connection", "close");
  stampPeerAddress(req.headers, req.socket.remoteAddress);
  const runtime = runtimeRouteFor(req);
  const served = runtime ? serveRuntime(req, res, runtime) : nextHandler(req, res);
  served.catch((error: unknown) => {
    log.error({ err: error, url: req.url, method: req.method }, "request failed outside its handler");
    if (!res.headersSent) res.writeHead(500).end();
    else res.destroy();
  });
}

const server = createServer(onRequest);
server.listen(port, host, () => log.info({ port, host }, "web process listening"));

async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal, inFlight: underWay.size }, "stopping: draining requests under way");
  for (const res of underWay) if (!res.headersSent) res.setHeader("connection", "close");
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
  await pgPool()
    .end()
    .catch(() => undefined);
  log.info("web process stopped");
  await flushLogs();
  process.exit(0);
}

for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void shutdown(signal));
