// The Next.js half of the production web process (docs/architecture.md section 11; docs/decisions.md
// "Next.js in a child process of the web process"): server/web/main.ts starts it as a child and hands
// it every request the runtime lane does not answer, over a local socket. Next.js installs
// process-wide hooks (it wraps Date, crypto and timers, and its AsyncLocalStorage instances turn
// on promise hooks) that tax every request of the process it runs in; in a process of its own
// they tax only its requests. It exits when its parent does, and stops serving on SIGTERM.
import { chmodSync } from "node:fs";
import { createServer, type Server } from "node:http";
import next from "next";
import { packageRoot } from "../core/package-root.ts";
import { pgPool } from "../db/pool.ts";
import { flushLogs, logger } from "../log.ts";
import { armPeerStamp } from "./peer-address.ts";
import { NEXT_KEEP_ALIVE_MS } from "./next-socket.ts";
import { flushRefusalsInWeb, reportReady, reportToWeb } from "./web-link.ts";
import { forwardObservations } from "../http/metrics.ts";
import { delegateRefusalFlush } from "../domain/cross-tenant.ts";

const socketPath = process.env.LICENSING_NEXT_SOCKET;
if (!socketPath || !process.send)
  throw new Error("server/web/next-process.ts is started by server/web/main.ts");
const log = logger.child({ component: "next" });

// The parent stamps each request with the caller's address and its secret; this process checks it.
armPeerStamp(process.env.LICENSING_PEER_STAMP);
delete process.env.LICENSING_PEER_STAMP;

// The web process keeps the one set of counters: this process reports to it.
forwardObservations((o) => reportToWeb({ ...o, at: o.at.toISOString() }));
delegateRefusalFlush(flushRefusalsInWeb);

let server: Server | undefined;

async function stop(code: number): Promise<void> {
  server?.closeAllConnections();
  server?.close();
  await pgPool()
    .end()
    .catch(() => undefined);
  await flushLogs();
  process.exit(code);
}

// The parent drains its requests before it sends SIGTERM; a parent that is gone (killed) leaves
// nothing to serve. Listened for before Next.js prepares, and checked once: a parent killed while
// this module's imports still loaded has disconnected before anyone listened, and this process
// would otherwise run on, serving no one, for good.
process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => undefined);
process.on("disconnect", () => void stop(1));
if (!process.connected) void stop(1);

const app = next({
  dev: false,
  dir: packageRoot(import.meta.url),
  customServer: true,
});
await app.prepare();
const handler = app.getRequestHandler();

server = createServer({ keepAliveTimeout: NEXT_KEEP_ALIVE_MS }, (req, res) => {
  handler(req, res).catch((error: unknown) => {
    log.error({ err: error, url: req.url, method: req.method }, "request failed outside its handler");
    if (!res.headersSent) res.writeHead(500).end();
    else res.destroy();
  });
});
server.listen(socketPath, () => {
  // Only this service's user reaches Next.js directly; everyone else goes through the web process.
  chmodSync(socketPath, 0o600);
  reportReady();
});
