import { createServer, connect, type Server, type Socket } from "node:net";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "../../../server/db/client.ts";
import { createPgPool } from "../../../server/db/pool.ts";
import { startWebhookDispatcher } from "../../../server/jobs/webhook-dispatcher.ts";

/**
 * The worker's webhook dispatcher while PostgreSQL is away: every poll fails, and is retried at the
 * next one. That is expected and logged as a warning; an error line per poll and loop (about 65 per
 * worker per outage before) would page someone for nothing. The database sits behind a TCP relay
 * the test cuts, so the outage is real: open connections drop and new ones are refused.
 */
type Line = { level: "debug" | "info" | "warn" | "error"; message: string; err?: string };

function relayTo(target: URL): Promise<{ server: Server; port: number; cut(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        server,
        port: (server.address() as { port: number }).port,
        cut: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            for (const s of sockets) s.destroy();
          }),
      }),
    ),
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let stop: (() => Promise<void>) | undefined;
afterAll(async () => stop?.());

describe("webhook dispatcher during a database outage", () => {
  it("logs the failed polls as warnings, not errors, and keeps polling", async () => {
    const target = new URL(inject("databaseUrl"));
    const relay = await relayTo(target);
    const through = new URL(target);
    through.hostname = "127.0.0.1";
    through.port = String(relay.port);
    const lines: Line[] = [];
    const describeErr = (err: unknown) => {
      const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
      return err === undefined ? undefined : `${String(code)}: ${String(message)}`;
    };
    const record = (level: Line["level"]) => (fields: { err?: unknown }, message?: string) =>
      void lines.push({ level, message: message ?? "", err: describeErr(fields.err) });
    const dispatcher = await startWebhookDispatcher({
      base: createDb(through.toString(), { max: 2 }),
      pool: createPgPool(through.toString(), 2),
      connectionString: through.toString(),
      log: { debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error") },
      pollMs: 50,
      slots: 4,
    });
    stop = () => dispatcher.stop();
    await sleep(300);
    expect(lines.filter((l) => l.level === "error")).toEqual([]);

    await relay.cut();
    await sleep(1_500);
    const failedPolls = lines.filter((l) => l.message === "webhook fan-out failed");
    // 50 ms polls for 1.5 s: every one of them failed, and each was a warning.
    expect(failedPolls.length).toBeGreaterThanOrEqual(5);
    expect(failedPolls.filter((l) => l.level !== "warn")).toEqual([]);
    expect(lines.filter((l) => l.level === "error")).toEqual([]);
  }, 30_000);
});
