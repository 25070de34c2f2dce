// Webhook fan-out benchmark: N events to K subscriptions on a local node:http receiver, delivered by
// the real worker process (server/worker.ts: its webhook dispatcher and delivery pump) against the
// production build on a fresh database. Two phases: a burst (every event committed at once: the
// throughput) and a paced run below saturation (the end-to-end latency, commit → received).
// Reports deliveries/s, p50/p99, worker and PostgreSQL CPU, and the load average.
import { systemContext } from "../../server/domain/context.ts";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import pg from "pg";
import { Webhook } from "standardwebhooks";
import { createDb } from "../../server/db/client.ts";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { createTenant } from "../../server/domain/cross-tenant.ts";
import { createClient } from "../../server/domain/identity/oauth-clients.ts";
import { emitEvents } from "../../server/domain/webhooks/events/emit-event.ts";
import { findEventType } from "../../server/domain/webhooks/events/event-types.ts";
import { repoRoot, startTestServer, TEST_APP_SECRET } from "../../tests/helpers/test-server.ts";
import { readProcs } from "./cpu.ts";

type Phase = {
  events: number;
  deliveries: number;
  durationMs: number;
  deliveriesPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** CPU time per delivery and cores kept busy, of the worker process and this database's PostgreSQL backends. */
  cpu: { workerMsPerDelivery: number; postgresMsPerDelivery: number; workerCores: number; postgresCores: number };
  loadAverage: { before: number[]; after: number[] };
};

export type WebhookFanOutResult = {
  scenario: "webhook-fan-out";
  subscriptions: number;
  burst: Phase;
  paced: Phase & { targetDeliveriesPerSecond: number };
  /** Headline figures: the burst's throughput, the paced run's latency. */
  deliveriesPerSecond: number;
  latencyMs: { p50: number; p99: number };
  failedSignatureChecks: number;
  uptime: string;
};

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();

export async function runWebhookFanOut(
  options: { events?: number; subscriptions?: number; log?: (line: string) => void } = {},
): Promise<WebhookFanOutResult> {
  const events = options.events ?? Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000);
  const subscriptions = options.subscriptions ?? Number(process.env.BENCH_WEBHOOK_SUBSCRIPTIONS ?? 10);
  const pacedRate = Number(process.env.BENCH_WEBHOOK_PACED_RATE ?? 500);
  const log = options.log ?? ((line: string) => process.stderr.write(`[bench:webhooks] ${line}\n`));

  log("starting the production server on a fresh database");
  const server = await startTestServer();
  // The seeded tenant's keys are sealed with the server's secret.
  process.env.APP_SECRET = TEST_APP_SECRET;
  const db = createDb(server.databaseUrl, { max: 4 });
  const stats = new pg.Client({ connectionString: server.databaseUrl });
  await stats.connect();
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const verifier = new Webhook(secret);
  const committedAt = new Map<string, number>();
  let latencies: number[] = [];
  let failedSignatureChecks = 0;
  let received = 0;
  let lastAt = 0;
  let expected = Number.POSITIVE_INFINITY;
  let allReceived: () => void = () => {};

  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const type = req.headers["webhook-event-type"];
      if (type === "Webhooks.Registration.Challenge") {
        const answer = JSON.stringify({ challenge: (JSON.parse(body) as { data: { challenge: string } }).data.challenge });
        const signature = verifier.sign(String(req.headers["webhook-id"]), new Date(Number(req.headers["webhook-timestamp"]) * 1000), answer);
        return void res.writeHead(200, { "content-type": "application/json", "webhook-signature": signature }).end(answer);
      }
      const now = Date.now();
      // Every 20th delivery is verified with the independent library (verifying all would bench the receiver).
      if (received % 20 === 0) {
        try {
          verifier.verify(body, req.headers as Record<string, string>);
        } catch {
          failedSignatureChecks++;
        }
      }
      const t0 = committedAt.get(String(req.headers["webhook-id"]));
      if (t0 !== undefined) latencies.push(now - t0);
      received++;
      lastAt = now;
      res.writeHead(204).end();
      if (received === expected) allReceived();
    });
  });
  receiver.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  let worker: ChildProcess | undefined;
  try {
    const tenant = await createTenant(db, { name: "Bench webhooks" });
    const { client, clientSecret } = await createClient(systemContext(db, tenant.tenantId, "bench"), { name: "bench", kind: "admin", scopes: ["provision.webhook.*"] });
    const tokenRes = await fetch(`${server.baseUrl}/auth/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.clientId, client_secret: clientSecret, scope: "provision.webhook.*" }),
    });
    const token = ((await tokenRes.json()) as { access_token: string }).access_token;
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${server.baseUrl}${url}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: body ? JSON.stringify(body) : undefined });
      const json = (await res.json()) as { id: string; state: string };
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    log(`creating and verifying ${subscriptions} subscriptions over REST`);
    for (let i = 0; i < subscriptions; i++) {
      const sub = await call("POST", "/api/v1/webhooks/subscriptions", { displayName: `bench ${i}`, url: receiverUrl, eventTypePatterns: ["*"], secret });
      const verified = await call("POST", `/api/v1/webhooks/subscriptions/${sub.id}/verify`);
      if (verified.state !== "Active") throw new Error(`subscription ${i} did not verify`);
    }

    log("starting the worker");
    worker = spawn(process.execPath, ["--import", "tsx", "server/worker.ts"], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: server.databaseUrl, APP_SECRET: TEST_APP_SECRET, WEBHOOKS_ALLOW_PRIVATE_URLS: "1", LOG_LEVEL: "warn" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const workerPid = worker.pid!;
    await waitForHeartbeat(stats);

    const definition = findEventType("Entitlement.Activated")!;
    const scoped = tenantDb(db, tenant.tenantId);
    const emitBatch = async (from: number, count: number) => {
      const envelopes = await scoped.$transaction((tx) =>
        emitEvents(
          tx,
          Array.from({ length: count }, (_, j) => ({ tenantId: tenant.tenantId, type: definition.type, entityKind: definition.entityKind, entityId: `bench-${from + j}`, subject: definition.sample.subject, data: definition.sample.data })),
        ),
      );
      const at = Date.now();
      for (const e of envelopes) committedAt.set(e.id, at);
    };
    const backendCpu = async () => {
      const pids = (await stats.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")).rows.map((r) => r.pid);
      const procs = new Map(readProcs().map((p) => [p.pid, p.cpuMs]));
      return { worker: procs.get(workerPid) ?? 0, backends: new Map(pids.map((pid) => [pid, procs.get(pid) ?? 0])) };
    };
    const measure = async (count: number, emitAll: () => Promise<void>): Promise<Phase> => {
      latencies = [];
      const base = received;
      expected = base + count * subscriptions;
      const done = new Promise<void>((r) => (allReceived = r));
      const before = await backendCpu();
      const loadBefore = loadavg().map((n) => round(n));
      const started = Date.now();
      await emitAll();
      const timeout = setTimeout(() => allReceived(), 10 * 60_000);
      await done;
      clearTimeout(timeout);
      const durationMs = lastAt - started;
      const after = await backendCpu();
      let postgresMs = 0;
      for (const [pid, ms] of after.backends) postgresMs += Math.max(0, ms - (before.backends.get(pid) ?? 0));
      const workerMs = after.worker - before.worker;
      const deliveries = received - base;
      const sorted = latencies.sort((a, b) => a - b);
      return {
        events: count,
        deliveries,
        durationMs,
        deliveriesPerSecond: Math.round((deliveries / durationMs) * 1000),
        latencyMs: { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? 0 },
        cpu: {
          workerMsPerDelivery: round(workerMs / deliveries, 3),
          postgresMsPerDelivery: round(postgresMs / deliveries, 3),
          workerCores: round(workerMs / durationMs),
          postgresCores: round(postgresMs / durationMs),
        },
        loadAverage: { before: loadBefore, after: loadavg().map((n) => round(n)) },
      };
    };

    const warmup = Math.min(20, events);
    log(`warming up (${warmup} events)`);
    await measure(warmup, () => emitBatch(0, warmup));

    log(`burst: ${events} events (${events * subscriptions} deliveries), committed 25 per transaction`);
    const burst = await measure(events, async () => {
      for (let i = 0; i < events; i += 25) await emitBatch(1_000_000 + i, Math.min(25, events - i));
    });
    log(`burst: ${burst.deliveriesPerSecond} deliveries/s`);

    const pacedEvents = Math.max(1, Math.round((pacedRate / subscriptions) * 5));
    log(`paced: ${pacedEvents} events over 5 s (${pacedRate} deliveries/s), one event per transaction`);
    const paced = await measure(pacedEvents, async () => {
      const start = Date.now();
      for (let i = 0; i < pacedEvents; i++) {
        const due = start + (i * 5000) / pacedEvents;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        await emitBatch(2_000_000 + i, 1);
      }
    });
    return {
      scenario: "webhook-fan-out",
      subscriptions,
      burst,
      paced: { ...paced, targetDeliveriesPerSecond: pacedRate },
      deliveriesPerSecond: burst.deliveriesPerSecond,
      latencyMs: { p50: paced.latencyMs.p50, p99: paced.latencyMs.p99 },
      failedSignatureChecks,
      uptime: uptime(),
    };
  } finally {
    worker?.kill("SIGTERM");
    receiver.closeAllConnections();
    await new Promise<void>((r) => receiver.close(() => r()));
    await stats.end();
    await db.$disconnect();
    await server.stop();
  }
}

/** The worker has started once it reports a heartbeat. */
async function waitForHeartbeat(client: pg.Client): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "WorkerHeartbeat"`);
    if (rows[0].n > 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the worker did not start within 60 s");
}
