// What the cluster test asserts once the load has stopped (issue 26 "Done when"), read from the
// database and from what every call was answered. Each check is a line of the report: its figures
// and whether it holds.
import { createHash } from "node:crypto";
import type pg from "pg";
import { failed, type Call } from "./client.ts";
import type { Window } from "./faults.ts";
import { SEATS, type Seed } from "./fixtures.ts";
import type { MixedLoad } from "./load.ts";
import type { Receiver } from "./receiver.ts";
import { waitFor } from "./shell.ts";

export type Check = { name: string; ok: boolean; figures: Record<string, unknown> };

/** One PASS/FAIL line per check with its figures, then the count; whether every check held. */
export function printChecks(checks: Check[]): boolean {
  for (const c of checks)
    process.stdout.write(`${c.ok ? "PASS" : "FAIL"}  ${c.name}\n      ${JSON.stringify(c.figures)}\n`);
  const passed = checks.filter((c) => c.ok).length;
  process.stdout.write(`\n${passed} passed, ${checks.length - passed} failed\n`);
  return passed === checks.length;
}

const hash = (fingerprint: string) => createHash("sha256").update(fingerprint, "utf8").digest("hex");
const subOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")).sub as string;
const count = async (sql: pg.Client, text: string, values: unknown[]) =>
  Number((await sql.query(text, values)).rows[0].n);

export async function activationChecks(sql: pg.Client, load: MixedLoad, seed: Seed): Promise<Check[]> {
  const answered = load.activations.filter((a) => a.call.status === 200);
  const sessions = await sql.query<{ id: string; fingerprintHash: string }>(
    `SELECT s.id, d."fingerprintHash" FROM "LicenseSession" s JOIN "Device" d ON d.id = s."deviceId"
     WHERE s."tenantId" = $1 AND s."revokedAt" IS NULL`,
    [seed.tenantId],
  );
  const byHash = new Map<string, string[]>();
  for (const row of sessions.rows)
    byHash.set(row.fingerprintHash, [...(byHash.get(row.fingerprintHash) ?? []), row.id]);
  const wrong = answered.filter((a) => {
    const ids = byHash.get(hash(a.fingerprint)) ?? [];
    return ids.length !== 1 || ids[0] !== subOf(a.call.body);
  });
  const unanswered = load.activations.filter((a) => a.call.status === 0).length;
  const seatsHeld = await count(
    sql,
    `SELECT count(*) AS n FROM "LicenseSession" WHERE "tenantId" = $1 AND "entitlementId" = $2 AND "revokedAt" IS NULL`,
    [seed.tenantId, seed.seats.entitlementId],
  );
  const seatAnswers = load.activations.filter((a) => a.license === "seats");
  const seatRefusals: Record<string, number> = {};
  for (const a of seatAnswers.filter((x) => x.call.status !== 200)) {
    const key = `${a.call.status} ${a.call.body?.codeName}`;
    seatRefusals[key] = (seatRefusals[key] ?? 0) + 1;
  }
  return [
    {
      name: "every answered activation is in the database exactly once (its own session)",
      ok: wrong.length === 0 && unanswered === 0,
      figures: {
        activations: load.activations.length,
        answered: answered.length,
        notExactlyOnce: wrong.length,
        unanswered,
      },
    },
    {
      name: `no seat over-allocated (license of ${SEATS} seats)`,
      ok: seatsHeld <= SEATS && seatsHeld === seatAnswers.filter((a) => a.call.status === 200).length,
      figures: {
        tried: seatAnswers.length,
        answered200: seatAnswers.filter((a) => a.call.status === 200).length,
        seatsHeld,
        refusals: seatRefusals,
      },
    },
  ];
}

export async function meteringChecks(sql: pg.Client, load: MixedLoad, seed: Seed): Promise<Check[]> {
  const entitlement = seed.metered.entitlementId;
  const allowed = new Set(
    load.consumes.filter((c) => c.call.status === 200 && c.call.body?.allowed).map((c) => c.key),
  );
  const ledger = await count(
    sql,
    `SELECT count(*) AS n FROM "ConsumeEntry" WHERE "tenantId" = $1 AND "entitlementId" = $2`,
    [seed.tenantId, entitlement],
  );
  const meter = (
    await sql.query(
      `SELECT coalesce(sum("consumedUsage"), 0) AS usage, coalesce(sum("consumeCount"), 0) AS consumes, coalesce(sum("recordCount"), 0) AS records FROM "MeterPeriod" WHERE "tenantId" = $1 AND "entitlementId" = $2`,
      [seed.tenantId, entitlement],
    )
  ).rows[0];
  const uploaded = load.uploads
    .filter((u) => u.call.status === 200)
    .reduce((n, u) => n + u.transactionIds.length, 0);
  const records = await count(
    sql,
    `SELECT count(*) AS n FROM "UsageRecord" WHERE "tenantId" = $1 AND "entitlementId" = $2`,
    [seed.tenantId, entitlement],
  );
  return [
    {
      name: "ledger = meter usage = consumes answered allowed (one entry per idempotencyKey)",
      ok: ledger === Number(meter.usage) && ledger === Number(meter.consumes) && ledger === allowed.size,
      figures: {
        consumeCalls: load.consumes.length,
        allowedKeys: allowed.size,
        ledgerEntries: ledger,
        meterUsage: Number(meter.usage),
        meterConsumeCount: Number(meter.consumes),
      },
    },
    {
      name: "usage records stored = records answered 200 (retried uploads count once)",
      ok: records === uploaded,
      figures: {
        uploads: load.uploads.length,
        recordsAnswered: uploaded,
        recordsStored: records,
        meterRecordCount: Number(meter.records),
      },
    },
  ];
}

export async function webhookChecks(sql: pg.Client, seed: Seed, receiver: Receiver): Promise<Check> {
  const rows = (
    await sql.query<{ id: string; status: string | null }>(
      `SELECT e.id, d.status FROM "WebhookEnvelope" e
       LEFT JOIN "WebhookDelivery" d ON d."envelopeId" = e.id AND d."subscriptionId" = $2
       WHERE e."tenantId" = $1 AND e."targetSubscriptionId" IS NULL`,
      [seed.tenantId, seed.subscriptionId],
    )
  ).rows;
  const missing = rows.filter((r) => !receiver.received.has(r.id) && r.status !== "dead");
  const known = new Set(rows.map((r) => r.id));
  const strangers = [...receiver.received.keys()].filter((id) => !known.has(id));
  const duplicates = [...receiver.received.values()].filter((n) => n > 1).length;
  return {
    name: "every webhook event delivered at least once with its webhook-id (or dead-lettered)",
    ok: missing.length === 0 && strangers.length === 0,
    figures: {
      events: rows.length,
      delivered: rows.filter((r) => receiver.received.has(r.id)).length,
      deliveredMoreThanOnce: duplicates,
      deadLettered: rows.filter((r) => r.status === "dead").length,
      missing: missing.length,
      unknownIds: strangers.length,
    },
  };
}

/** Calls whose attempts (any of them) fell in the window; and the failed attempts there. */
export function attemptsIn(calls: Call[], w: Window) {
  const attempts = calls
    .flatMap((c) => c.attempts.map((a) => ({ ...a, kind: c.kind })))
    .filter((a) => a.at >= w.start && a.at <= w.end);
  return { attempts: attempts.length, failed: attempts.filter(failed) };
}

export function faultChecks(calls: Call[], windows: Window[]): Check[] {
  const checks: Check[] = [];
  for (const w of windows) {
    const { attempts, failed: bad } = attemptsIn(calls, w);
    const kinds: Record<string, number> = {};
    for (const a of bad) {
      const key =
        a.status === 0
          ? a.error!
          : `${a.status} ${a.codeName ?? ""}${a.fromLb ? " (haproxy, no host up)" : ""}${a.retryAfter ? " retry-after" : ""}`.trim();
      kinds[key] = (kinds[key] ?? 0) + 1;
    }
    const figures = {
      seconds: Math.round((w.end - w.start) / 100) / 10,
      attempts,
      failedAttempts: bad.length,
      failures: kinds,
      notes: w.notes,
      // Where and when each failure happened, to find it in the host and HAProxy logs.
      failedAt: bad
        .slice(0, 20)
        .map(
          (a) =>
            `${a.kind} +${((a.at - w.start) / 1000).toFixed(1)} s ${a.server ?? "?"} ${new Date(a.at).toISOString()}`,
        ),
    };
    if (w.name.startsWith("rolling restart"))
      checks.push({ name: "zero failed requests during the rolling restart", ok: bad.length === 0, figures });
    else if (w.name.startsWith("PostgreSQL")) {
      // Never a 500: a database that is away is 503 service.unavailable with Retry-After.
      const wrong = bad.filter(
        (a) => !(a.status === 503 && a.codeName === "service.unavailable" && a.retryAfter),
      );
      checks.push({
        name: `${w.name}: failures are 503 service.unavailable with Retry-After, never 500`,
        ok: wrong.length === 0,
        figures,
      });
    } else checks.push({ name: `${w.name}: every call answered in the end (retried)`, ok: true, figures });
  }
  const unanswered = calls.filter((c) => c.status === 0);
  const retried = calls.filter((c) => c.attempts.length > 1);
  checks.push({
    name: "every call answered without a 5xx in the end",
    ok: unanswered.length === 0,
    figures: {
      calls: calls.length,
      attempts: calls.reduce((n, c) => n + c.attempts.length, 0),
      retriedCalls: retried.length,
      unanswered: unanswered.length,
    },
  });
  return checks;
}

/** Until every event is fanned out and every delivery to the receiver succeeded or was dead-lettered. */
export async function webhooksSettled(
  sql: pg.Client,
  tenantId: string,
  subscriptionId: string,
): Promise<void> {
  await waitFor(
    "webhook deliveries to finish",
    async () => {
      const { rows } = await sql.query(
        `SELECT (SELECT count(*) FROM "WebhookEnvelope" WHERE "tenantId" = $1 AND "fannedOutAt" IS NULL) AS pending,
                (SELECT count(*) FROM "WebhookDelivery" WHERE "tenantId" = $1 AND "subscriptionId" = $2 AND status NOT IN ('succeeded', 'dead')) AS open`,
        [tenantId, subscriptionId],
      );
      return Number(rows[0].pending) === 0 && Number(rows[0].open) === 0;
    },
    // A delivery whose worker was killed is taken again when its lease (60 s) runs out.
    180_000,
    1_000,
  );
}
