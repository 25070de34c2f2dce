// Receiving webhooks: verify the signature with the stock `standardwebhooks` library, parse the
// CloudEvents envelope, answer at once, process each event once, and ask for a replay of what was
// missed. docs/guides/receiving-webhooks.md explains each step; tests run this file against a real
// server and worker (tests/int/guides/guides.int.test.ts).
// #region receiver
import { createServer, type IncomingHttpHeaders } from "node:http";
import { HTTP, type CloudEvent } from "cloudevents";
import { Webhook } from "standardwebhooks";

export type LicensingEvent = CloudEvent<Record<string, unknown>>;

const headersOf = (headers: IncomingHttpHeaders) =>
  Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]),
  );

export function createReceiver(options: {
  /** The subscription's signing secret (`whsec_...`). */
  secret: string;
  /** Your processing; runs after the answer was sent, once per webhook-id. */
  onEvent: (event: LicensingEvent) => Promise<void> | void;
}) {
  const webhook = new Webhook(options.secret);
  // A real receiver keeps this in its database (a unique key on webhook-id), for longer than the
  // retry schedule (about 33 hours).
  const seen = new Set<string>();

  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      // Verify over the raw text exactly as received, before parsing anything.
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = headersOf(req.headers);
      try {
        webhook.verify(body, headers); // signature (any of several during a rotation) and 5-minute timestamp window
      } catch {
        res.writeHead(401).end();
        return;
      }
      const event = HTTP.toEvent<Record<string, unknown>>({ headers, body }) as LicensingEvent;

      // The registration challenge: echo it, and sign the answer with the same secret.
      if (event.type === "Webhooks.Registration.Challenge") {
        const answer = JSON.stringify({ challenge: event.data?.challenge });
        const signature = webhook.sign(
          headers["webhook-id"],
          new Date(Number(headers["webhook-timestamp"]) * 1000),
          answer,
        );
        res
          .writeHead(200, { "content-type": "application/json", "webhook-signature": signature })
          .end(answer);
        return;
      }

      // Answer first; a slow receiver is retried and its deliveries pile up.
      res.writeHead(204).end();
      // At-least-once delivery: a retry arrives with the same webhook-id; a replay is a new envelope
      // whose `replayof` attribute names the original. Either way, process each original once.
      const id = typeof event.replayof === "string" ? event.replayof : headers["webhook-id"];
      if (seen.has(id)) return;
      seen.add(id);
      // Test-fires carry `_test: true` in data: a receiver that must not act on them checks it.
      void Promise.resolve(options.onEvent(event)).catch(() => seen.delete(id));
    });
  });
}

// #endregion
// #region replay
// After an outage, ask the service to send again what went to this subscription in a window
// (integrator surface, scope webhooks.integrator; 200 envelopes an hour at most).
export async function replayWindow(
  baseUrl: string,
  token: string,
  subscriptionId: string,
  from: Date,
  to: Date,
) {
  const res = await fetch(`${baseUrl}/api/v1/webhooks/integrator/subscriptions/${subscriptionId}/replay`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ from: from.toISOString(), to: to.toISOString() }),
  });
  if (res.status !== 202) throw new Error(`replay answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}
// #endregion
