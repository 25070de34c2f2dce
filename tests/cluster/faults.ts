// The faults injected under load, one after the other, each a time window the checks read
// attempts by: kill -9 of a worker host (started again 5 s later), kill -9 of a web host (started
// again once HAProxy has taken it out), a PostgreSQL restart, and a rolling restart of every web
// host (SIGTERM → readiness 503 → drain → exit → start → HAProxy up → the next one).
import type pg from "pg";
import type { Db } from "../../server/db/client.ts";
import type { Haproxy } from "./haproxy.ts";
import type { MixedLoad } from "./load.ts";
import type { Receiver } from "./receiver.ts";
import { killHost, startHost, stopHost, waitReady, WEB_PORT, type Host } from "./hosts.ts";
import { restartPostgres } from "./postgres.ts";
import { sleep, waitFor } from "./shell.ts";

export type Window = { name: string; start: number; end: number; notes: string[] };
export type FaultContext = {
  hosts: Host[];
  haproxy: Haproxy;
  env: NodeJS.ProcessEnv;
  logDir: string;
  log: (line: string) => void;
};

const webHosts = (ctx: FaultContext) => ctx.hosts.filter((h) => h.kind === "web");

export async function lbState(ctx: FaultContext, host: Host, state: "UP" | "DOWN", timeoutMs = 60_000) {
  await waitFor(
    `haproxy: ${host.name} ${state}`,
    async () => (await ctx.haproxy.serverStates())[host.name]?.startsWith(state) ?? false,
    timeoutMs,
    100,
  );
}

export async function allWebUp(ctx: FaultContext, timeoutMs = 120_000) {
  for (const host of webHosts(ctx)) await lbState(ctx, host, "UP", timeoutMs);
}

export async function windowed(
  name: string,
  ctx: FaultContext,
  body: (notes: string[]) => Promise<void>,
): Promise<Window> {
  const w: Window = { name, start: Date.now(), end: 0, notes: [] };
  ctx.log(`fault: ${name}`);
  await body(w.notes);
  w.end = Date.now();
  ctx.log(
    `fault: ${name} done in ${((w.end - w.start) / 1000).toFixed(1)} s${w.notes.length ? ` (${w.notes.join("; ")})` : ""}`,
  );
  return w;
}

export const killWorker = (ctx: FaultContext) =>
  windowed("kill -9 of a worker host", ctx, async (notes) => {
    const host = ctx.hosts.find((h) => h.kind === "worker")!;
    notes.push(`${host.name}: ${await killHost(host)} processes killed`);
    await sleep(5_000);
    startHost(host, ctx.env, ctx.logDir);
  });

export const killWeb = (ctx: FaultContext) =>
  windowed("kill -9 of a web host and its restart", ctx, async (notes) => {
    const host = webHosts(ctx)[0];
    notes.push(`${host.name}: ${await killHost(host)} processes killed`);
    await lbState(ctx, host, "DOWN");
    startHost(host, ctx.env, ctx.logDir);
    await waitReady(host);
    await lbState(ctx, host, "UP");
  });

export const restartDatabase = (ctx: FaultContext) =>
  windowed("PostgreSQL restart", ctx, async (notes) => {
    const at = Date.now();
    await restartPostgres(3_000);
    notes.push(`down and up again in ${((Date.now() - at) / 1000).toFixed(1)} s`);
    await allWebUp(ctx);
  });

/** Readiness as the host itself answers it (not through HAProxy), polled while the host drains. */
function watchReadiness(host: Host): { stop: () => number[] } {
  const seen: number[] = [];
  let on = true;
  void (async () => {
    while (on) {
      try {
        const res = await fetch(`http://${host.address}:${WEB_PORT}/api/ready`, {
          signal: AbortSignal.timeout(1_000),
        });
        seen.push(res.status);
      } catch {
        seen.push(0);
      }
      await sleep(100);
    }
  })();
  return { stop: () => ((on = false), seen) };
}

export const rollingRestart = (ctx: FaultContext) =>
  windowed("rolling restart of every web host", ctx, async (notes) => {
    await allWebUp(ctx);
    for (const host of webHosts(ctx)) {
      const watch = watchReadiness(host);
      const code = await stopHost(host);
      const seen = watch.stop();
      // 503 while draining (before the port closed): what lets HAProxy take it out first.
      if (!seen.includes(503))
        throw new Error(`${host.name} never answered readiness 503 while draining (${seen.join(",")})`);
      notes.push(`${host.name}: exit ${code}, readiness 503 ×${seen.filter((s) => s === 503).length}`);
      startHost(host, ctx.env, ctx.logDir);
      await waitReady(host);
      await lbState(ctx, host, "UP");
    }
  });

/** Teardown: kill -9 of every host that still runs. */
export async function killRestartedHosts(hosts: Host[]): Promise<void> {
  for (const host of hosts) await killHost(host).catch(() => undefined);
}

/** Teardown of a run, whichever of its parts got started: the load, the hosts, HAProxy, the receiver, the harness's connections. */
export async function stopRun(run: {
  load?: MixedLoad;
  hosts: Host[];
  haproxy?: Haproxy;
  receiver?: Receiver;
  sql: pg.Client;
  db: Db;
}): Promise<void> {
  await run.load?.stop().catch(() => undefined);
  await killRestartedHosts(run.hosts);
  // Before HAProxy: the harness's connections may run through it (the failover test's do).
  await run.sql.end().catch(() => undefined);
  await run.db.$disconnect().catch(() => undefined);
  await run.haproxy?.stop().catch(() => undefined);
  await run.receiver?.close().catch(() => undefined);
}
