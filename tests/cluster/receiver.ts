// The webhook receiver: node:http on the bridge address, reached by the worker hosts. It answers
// the registration challenge (signed with the subscription's secret, as docs/api.md "Events"
// asks) and records every other delivery's webhook-id; answers 200.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type Receiver = {
  url: string;
  /** webhook-id → how many times it arrived. */
  received: Map<string, number>;
  setSecret: (secret: string) => void;
  close: () => Promise<void>;
};

export async function startReceiver(address: string): Promise<Receiver> {
  const received = new Map<string, number>();
  let secret = "";
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const id = String(req.headers["webhook-id"] ?? "");
      const envelope = JSON.parse(body) as { type: string; data?: { challenge?: string } };
      if (envelope.type === "Webhooks.Registration.Challenge") {
        const answer = JSON.stringify({ challenge: envelope.data?.challenge });
        const at = new Date(Number(req.headers["webhook-timestamp"]) * 1000);
        const signature = new Webhook(secret).sign(id, at, answer);
        return void res
          .writeHead(200, { "content-type": "application/json", "webhook-signature": signature })
          .end(answer);
      }
      received.set(id, (received.get(id) ?? 0) + 1);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/hooks`,
    received,
    setSecret: (s) => (secret = s),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
