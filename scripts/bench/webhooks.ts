// Webhook fan-out benchmark: N events to K subscriptions on a local node:http receiver, delivered by
// the real worker process (server/worker.ts) against the production build on a fresh database.
// Reports deliveries/s and end-to-end latency (event committed → request received).
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { createDb } from "../../server/db/client.ts";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { createTenant } from "../../server/domain/identity/create-tenant.ts";
import { createClient } from "../../server/domain/identity/oauth-clients.ts";
import { emitEvent } from "../../server/domain/webhooks/emit-event.ts";
import { findEventType } from "../../server/domain/webhooks/event-types.ts";
import { repoRoot, startTestServer, TEST_APP_SECRET } from "../../tests/helpers/test-server.ts";

export type WebhookFanOutResult = {
  scenario: "webhook-fan-out";
  events: number;
  subscriptions: number;
  deliveries: number;
  workerConcurrency: number;
  durationMs: number;
  deliveriesPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  failedSignatureChecks: number;
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export async function runWebhookFanOut(options: { events?: number; subscriptions?: number; concurrency?: number; log?: (line: string) => void } = {}): Promise<WebhookFanOutResult> {
  const events = options.events ?? Number(process.env.BENCH_WEBHOOK_EVENTS ?? 300);
  const subscriptions = options.subscriptions ?? Number(process.env.BENCH_WEBHOOK_SUBSCRIPTIONS ?? 10);
  const concurrency = options.concurrency ?? Number(process.env.BENCH_WEBHOOK_CONCURRENCY ?? 16);
  const log = options.log ?? ((line: string) => process.stderr.write(`[bench:webhooks] ${line}\n`));
  const expected = events * subscriptions;

  log("starting the production server on a fresh database");
  const server = await startTestServer();
  // The seeded tenant's keys are sealed with the server's secret.
  process.env.APP_SECRET = TEST_APP_SECRET;
  const db = createDb(server.databaseUrl, { max: 4 });
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const verifier = new Webhook(secret);
  const committedAt = new Map<string, number>();
  const latencies: number[] = [];
  let failedSignatureChecks = 0;
  let received = 0;
  let resolveAll!: () => void;
  const allReceived = new Promise<void>((r) => (resolveAll = r));
  let lastAt = 0;

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
      if (received === expected) resolveAll();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  let worker: ChildProcess | undefined;
  try {
    const tenant = await createTenant(db, { name: "Bench webhooks" });
    const { client, clientSecret } = await createClient(db, tenant.tenantId, { name: "bench", kind: "admin", scopes: ["provision.webhook.*"] });
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

    log(`starting the worker (WORKER_CONCURRENCY=${concurrency})`);
    worker = spawn(process.execPath, ["--import", "tsx", "server/worker.ts"], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: server.databaseUrl, APP_SECRET: TEST_APP_SECRET, WEBHOOKS_ALLOW_PRIVATE_URLS: "1", WORKER_CONCURRENCY: String(concurrency), LOG_LEVEL: "warn" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    await new Promise((r) => setTimeout(r, 3000));

    log(`emitting ${events} events (${expected} deliveries)`);
    const definition = findEventType("Entitlement.Activated")!;
    const scoped = tenantDb(db, tenant.tenantId);
    const started = Date.now();
    const batch = 25;
    for (let i = 0; i < events; i += batch) {
      const ids = await scoped.$transaction(async (tx) => {
        const out: string[] = [];
        for (let j = i; j < Math.min(events, i + batch); j++) {
          const envelope = await emitEvent(tx, { tenantId: tenant.tenantId, type: definition.type, entityKind: definition.entityKind, entityId: `bench-${j}`, subject: definition.sample.subject, data: definition.sample.data });
          out.push(envelope.id);
        }
        return out;
      });
      const at = Date.now();
      for (const id of ids) committedAt.set(id, at);
    }
    const timeout = setTimeout(() => resolveAll(), 10 * 60_000);
    await allReceived;
    clearTimeout(timeout);
    const durationMs = lastAt - started;
    const sorted = latencies.sort((a, b) => a - b);
    return {
      scenario: "webhook-fan-out",
      events,
      subscriptions,
      deliveries: received,
      workerConcurrency: concurrency,
      durationMs,
      deliveriesPerSecond: Math.round((received / durationMs) * 1000),
      latencyMs: { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] },
      failedSignatureChecks,
    };
  } finally {
    worker?.kill("SIGTERM");
    await new Promise<void>((r) => receiver.close(() => r()));
    await db.$disconnect();
    await server.stop();
  }
}
