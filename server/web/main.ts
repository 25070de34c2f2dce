// The production web entry (npm start, npm run web): WEB_CONCURRENCY web processes (default: the
// number of cores) share one port through node:cluster; the primary only accepts connections,
// hands them round-robin to the web processes (server/web/web-process.ts, each with its own
// Next.js child) and starts a new one when one dies. With one process there is no primary.
// On SIGTERM or SIGINT every web process drains (docs/operations.md "Graceful shutdown").
//   node dist/web/main.js --port 3000 --host 0.0.0.0   (npm run build compiles it)
import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import { webConcurrency } from "../config.ts";
import { logger } from "../log.ts";

const count = webConcurrency(availableParallelism());
if (count > 1 && cluster.isPrimary) superviseWebProcesses(count);
else await import("./web-process.ts");

function superviseWebProcesses(n: number): void {
  const log = logger.child({ component: "web-primary" });
  let stopping = false;
  const recentDeaths: number[] = [];
  const start = () =>
    cluster.fork({ LICENSING_WEB_PROCESS: String(Object.keys(cluster.workers ?? {}).length) });
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    const now = Date.now();
    recentDeaths.push(now);
    while (recentDeaths.length && recentDeaths[0] < now - 60_000) recentDeaths.shift();
    log.error({ pid: worker.process.pid, code, signal }, "a web process died; starting another");
    // A process that dies on start would be restarted in a tight loop: back off once it repeats.
    setTimeout(start, recentDeaths.length > n ? 5_000 : 0);
  });
  for (let i = 0; i < n; i++) start();
  log.info({ processes: n }, "web processes starting");
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping: every web process drains");
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}
