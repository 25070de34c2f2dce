// Rate limits hold across hosts: one license session of the rate tenant (usage.session limited to
// RATE_LIMIT per hour, tests/cluster/fixtures.ts) sends 3 × RATE_LIMIT consumes at once through
// HAProxy, which spreads them round-robin over the three web hosts. Counters live in PostgreSQL
// (docs/api.md "Rate limits"), so exactly RATE_LIMIT pass, whichever host answered.
import { randomUUID } from "node:crypto";
import { Client } from "./client.ts";
import type { Check } from "./checks.ts";
import { METRIC, RATE_LIMIT, type Seed } from "./fixtures.ts";
import { sleep } from "./shell.ts";

export async function rateBurst(base: string, seed: Seed): Promise<Check> {
  const client = new Client(base);
  try {
    const activated = await client.call("activate.rate", "POST", "/api/v1/provision/activations/jwt", {
      body: { activationCode: seed.rate.metered.code, fingerprint: `cluster-rate-${randomUUID()}` },
    });
    if (activated.status !== 200)
      throw new Error(`rate tenant activation: ${activated.status} ${JSON.stringify(activated.body)}`);
    const token = activated.body as string;
    const sessionId = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8"))
      .sub as string;
    // Fixed windows start on multiples of their length: a burst in the hour's last seconds could
    // be counted in two windows.
    const intoHour = (Date.now() / 1000) % 3600;
    if (intoHour > 3590) await sleep((3601 - intoHour) * 1000);
    const answers = await Promise.all(
      Array.from({ length: 3 * RATE_LIMIT }, () =>
        client.once(
          "POST",
          `/api/v1/provision/usage/consume/${sessionId}/${METRIC}?amount=1&idempotencyKey=${randomUUID()}`,
          { token },
        ),
      ),
    );
    const byServer: Record<string, number> = {};
    for (const a of answers)
      byServer[String(a.headers["x-cluster-server"])] =
        (byServer[String(a.headers["x-cluster-server"])] ?? 0) + 1;
    const passed = answers.filter((a) => a.status === 200).length;
    const limited = answers.filter(
      (a) => a.status === 429 && a.body?.codeName === "request.rate_limited" && a.headers["retry-after"],
    ).length;
    return {
      name: `a burst over three hosts passes exactly the limit (${RATE_LIMIT})`,
      ok:
        passed === RATE_LIMIT &&
        limited === answers.length - RATE_LIMIT &&
        Object.keys(byServer).length === 3,
      figures: { sent: answers.length, passed, limited429: limited, byHost: byServer },
    };
  } finally {
    client.close();
  }
}
