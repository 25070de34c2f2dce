import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import path from "node:path";
import { repoRoot } from "./runtime-env.ts";

export type ChildSpec = { name: string; command: string; args: string[]; env: NodeJS.ProcessEnv };

export type Supervisor = {
  /** Resolves once a TCP server accepts connections on `port`, or false when a child died first. */
  waitForPort: (port: number, timeoutMs?: number) => Promise<boolean>;
};

const shutdownSignals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
/** How long children get to finish (the worker drains running jobs) before they are killed. */
const gracePeriodMs = 30_000;
/** A terminal delivers Ctrl-C to the whole process group and tsx relays it too: count it once. */
const repeatWindowMs = 1_000;

/**
 * Runs the web and worker processes until one of them dies (exit 1) or this process is asked to
 * stop (signal forwarded, exit 0 once they are gone). `stop` (the embedded database) runs last.
 */
export function superviseChildren(
  specs: ChildSpec[],
  stop: () => Promise<void>,
  log: (line: string) => void,
): Supervisor {
  const live = new Map<string, ChildProcess>();
  let shuttingDown = false;
  let firstSignalAt = 0;

  const finish = async (code: number, signal: NodeJS.Signals) => {
    if (shuttingDown) return;
    shuttingDown = true;
    for (const child of live.values()) child.kill(signal);
    const deadline = setTimeout(() => {
      for (const [name, child] of live) {
        log(`${name} did not stop within ${gracePeriodMs / 1000} s; killing it`);
        child.kill("SIGKILL");
      }
    }, gracePeriodMs);
    await Promise.all(
      [...live.values()].map((child) => new Promise((resolve) => child.once("exit", resolve))),
    );
    clearTimeout(deadline);
    await stop().catch((error: unknown) => log(`stopping the database failed: ${String(error)}`));
    process.exit(code);
  };

  for (const signal of shutdownSignals) {
    process.on(signal, () => {
      const at = Date.now();
      if (!firstSignalAt) {
        firstSignalAt = at;
        log(`${signal} received; stopping`);
        void finish(0, signal);
      } else if (at - firstSignalAt > repeatWindowMs) {
        log(`${signal} received again; killing ${[...live.keys()].join(", ") || "nothing"}`);
        for (const child of live.values()) child.kill("SIGKILL");
      }
    });
  }
  // Last resort if this process dies unexpectedly: never leave orphans behind.
  process.on("exit", () => {
    for (const child of live.values()) child.kill("SIGKILL");
  });

  for (const spec of specs) {
    const child = spawn(spec.command, spec.args, { cwd: repoRoot, env: spec.env, stdio: "inherit" });
    live.set(spec.name, child);
    child.on("error", (error) => {
      log(`${spec.name} could not be started: ${error.message}`);
      live.delete(spec.name);
      void finish(1, "SIGTERM");
    });
    child.on("exit", (code, signal) => {
      live.delete(spec.name);
      if (shuttingDown) return;
      log(`${spec.name} exited unexpectedly (${signal ? `signal ${signal}` : `code ${code}`}); stopping`);
      void finish(1, "SIGTERM");
    });
  }

  return {
    waitForPort: async (port, timeoutMs = 180_000) => {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        if (shuttingDown) return false;
        if (await accepts(port)) return true;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      return false;
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.setTimeout(1000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Runs a command to completion with inherited output; resolves with its exit code. */
export function runToCompletion(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: "inherit" });
    child.on("error", () => resolve(127));
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Node scripts of installed packages, run with this Node (no shell, no PATH lookup). */
export const nextBin = path.join(repoRoot, "node_modules/next/dist/bin/next");

/**
 * The production web command (server/web/main.ts: the runtime lane and Next.js behind one node:http
 * server), compiled by `npm run build` to dist/web/main.js and run by plain Node.
 */
export function webArgs(port: number, host: string): string[] {
  return [
    "--enable-source-maps",
    path.join(repoRoot, "dist/web/main.js"),
    "--port",
    String(port),
    "--host",
    host,
  ];
}

/**
 * The worker command: the compiled dist/worker.js under plain Node, one process so signals reach it
 * directly; under `npm run dev`, the source with tsx watching it.
 */
export function workerArgs(watch = false): string[] {
  return watch
    ? [
        path.join(repoRoot, "node_modules/tsx/dist/cli.mjs"),
        "watch",
        "--clear-screen=false",
        "server/worker.ts",
      ]
    : ["--enable-source-maps", path.join(repoRoot, "dist/worker.js")];
}

/**
 * The address the web process (server/web/main.ts) or `next dev` binds. HOSTNAME is honoured only when
 * set deliberately: shells and containers export it as the machine's own name, which would not
 * bind every interface.
 */
export function bindHost(env: NodeJS.ProcessEnv, machineName: string): string {
  const host = env.HOSTNAME;
  return host && host !== machineName ? host : "0.0.0.0";
}
