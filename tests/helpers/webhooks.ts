import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { HTTP, type CloudEvent } from "cloudevents";
import { Logger, type Runner } from "graphile-worker";
import { Webhook } from "standardwebhooks";
import { expect } from "vitest";
import { db } from "../../server/db/client.ts";
import { runWorker } from "../../server/jobs/run-worker.ts";
import { logger } from "../../server/log.ts";
import { testDatabaseUrl } from "./db.ts";

export type ReceivedRequest = { headers: Record<string, string>; body: string; receivedAt: number };
export type Handler = (req: ReceivedRequest, res: ServerResponse) => void | Promise<void>;

const flatten = (headers: IncomingHttpHeaders) =>
  Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]),
  );

/**
 * A real local receiver (node:http on 127.0.0.1): records every request with its raw body and
 * answers with the current handler (200 by default).
 */
export async function startReceiver() {
  const requests: ReceivedRequest[] = [];
  let handler: Handler = (_req, res) => void res.writeHead(200).end("ok");
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const received = {
        headers: flatten(req.headers),
        body: Buffer.concat(chunks).toString("utf8"),
        receivedAt: Date.now(),
      };
      requests.push(received);
      void Promise.resolve(handler(received, res)).catch(() => res.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    requests,
    setHandler(next: Handler) {
      handler = next;
    },
    /** Requests whose webhook-subscription header names this subscription. */
    forSubscription(subscriptionId: string) {
      return requests.filter((r) => r.headers["webhook-subscription"] === subscriptionId);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Polls until `check` returns a value (not undefined/false) or the deadline passes. */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const quiet = new Logger(() => () => {});

/**
 * A real worker in the test process, on the test database (the shared server runs no worker):
 * graphile-worker's jobs and the webhook dispatcher, on the process-wide Prisma client and pool,
 * as in the worker process. Several test files run one each: they share the work like workers do.
 */
export async function startWorker(connectionString = testDatabaseUrl()): Promise<Runner> {
  process.env.DATABASE_URL = connectionString;
  return runWorker({
    connectionString,
    concurrency: 4,
    pollInterval: 100,
    logger: quiet,
    log: logger.child({}, { level: "silent" }),
  });
}

export async function stopWorker(runner: Runner | undefined) {
  await runner?.stop().catch(() => undefined);
  await db().$disconnect();
}

/**
 * Verifies a delivery the way a receiver would, with the independent libraries: the Standard
 * Webhooks signature (any listed signature; the library's own 5-minute timestamp tolerance) and
 * the CloudEvents envelope. Returns the parsed event.
 */
export function verifyDelivery(
  request: ReceivedRequest,
  secret: string,
): CloudEvent<Record<string, unknown>> {
  expect(() => new Webhook(secret).verify(request.body, request.headers)).not.toThrow();
  const event = HTTP.toEvent<Record<string, unknown>>({
    headers: request.headers,
    body: request.body,
  }) as CloudEvent<Record<string, unknown>>;
  expect(event.specversion).toBe("1.0");
  expect(event.id).toBe(request.headers["webhook-id"]);
  expect(event.type).toBe(request.headers["webhook-event-type"]);
  expect(event.source).toBe(`urn:licensing:tenant:${request.headers["webhook-tenant"]}`);
  expect(event.tenantid).toBe(request.headers["webhook-tenant"]);
  expect(event.datacontenttype).toBe("application/json");
  expect(typeof event.eventversion).toBe("number");
  return event;
}

/** A handler that answers a registration challenge correctly: echo, and sign the answer with `secret`. */
export function challengeAnswerer(
  secret: string,
  tamper: { echo?: string; signWith?: string } = {},
): Handler {
  return (req, res) => {
    const envelope = JSON.parse(req.body) as { type: string; data: { challenge: string } };
    if (envelope.type !== "Webhooks.Registration.Challenge") return void res.writeHead(200).end("ok");
    const body = JSON.stringify({ challenge: tamper.echo ?? envelope.data.challenge });
    const timestamp = new Date(Number(req.headers["webhook-timestamp"]) * 1000);
    const signature = new Webhook(tamper.signWith ?? secret).sign(req.headers["webhook-id"], timestamp, body);
    res.writeHead(200, { "content-type": "application/json", "webhook-signature": signature }).end(body);
  };
}
