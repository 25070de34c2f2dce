// The metering benchmark's same-work baseline (docs/architecture.md section 11): a bare node:http server
// with pg and jose that verifies the license token against the tenant's JWKS and runs the very
// statements of the real handlers' common paths (server/domain/metering/**/…-sql.ts): a consume
// is the one conditional statement of its fast path, an upload the one usage statement, each
// counting the request against the `usage.session` rate limit as the handlers do (in the same
// statement; RATE_LIMITS as the server's). What it leaves out is what our stack adds: Next.js
// routing, the route wrapper, zod, the terms and the decision. Started as its own process by
// scripts/bench/metering.ts.
//   POST /consume/{sessionId}?amount=1   POST /upload/{sessionId} (body: records)
// Env: DATABASE_URL, BASELINE_JWKS (the tenant's JWKS), BASELINE_METERS (entitlementId → meter ids).
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import { pgPool } from "../../server/db/pool.ts";
import { FAST_CONSUME } from "../../server/domain/metering/consumption/consume-sql.ts";
import { buildLadder, freeRegions } from "../../server/domain/metering/consumption/ladder.ts";
import { toDecimalString } from "../../server/domain/metering/quantity.ts";
import { RECORD_USAGE } from "../../server/domain/metering/usage/usage-sql.ts";
import { METER_VERSION_SQL } from "../../server/domain/metering/meters/meter-version.ts";
import { hitValues } from "../../server/domain/rate-limits/hit-rate-limits.ts";

type Meter = { tenantId: string; assetId: string; meteredUsageId: string; periodKey: string; periodStart: string; periodEnd: string };

// The service's own pool: 20 plain pg connections on DATABASE_URL.
const pool = pgPool();
const keys = createLocalJWKSet(JSON.parse(process.env.BASELINE_JWKS!) as JSONWebKeySet);
const meters = JSON.parse(process.env.BASELINE_METERS!) as Record<string, Meter>;
const versions = new Map<string, string>();

async function claimsOf(authorization: string | undefined) {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1] ?? "";
  const { payload } = await jwtVerify(token, keys, { audience: "license" });
  return { sessionId: payload.sub as string, entitlementId: payload.ent as string };
}

/** The handlers' count of the request: `usage.session`, keyed by the session. */
const limitValues = (tenantId: string, sessionId: string) =>
  hitValues({ tenantId }, [{ name: "usage.session", key: sessionId }], new Date());

/** The consume's common path: the one conditional statement (its fast path) with the meter's free regions. */
const regions = freeRegions(buildLadder({ value: "1000000000", tiers: [], enforcementType: null }));

async function consume(sessionId: string, entitlementId: string, amount: string) {
  const m = meters[entitlementId];
  const version = await versionOf(entitlementId);
  const { rows } = await pool.query({
    name: "baseline.consume",
    text: FAST_CONSUME,
    values: [
      m.tenantId, entitlementId, sessionId, randomUUID(), new Date(), amount, m.assetId, m.periodKey, version,
      m.meteredUsageId, regions.map((r) => toDecimalString(r.lo)),
      regions.map((r) => (r.hi === null ? null : toDecimalString(r.hi))), regions.map((r) => r.severity),
      "api-calls", regions.map((r) => r.tierName), ...limitValues(m.tenantId, sessionId),
    ],
  });
  if (rows[0].usage === null) throw new Error("not written");
  return { allowed: true, usage: Number(rows[0].usage) };
}

async function versionOf(entitlementId: string) {
  if (!versions.has(entitlementId)) {
    const { rows } = await pool.query(METER_VERSION_SQL, [meters[entitlementId].tenantId, entitlementId]);
    versions.set(entitlementId, rows[0].version);
  }
  return versions.get(entitlementId)!;
}

type Record_ = { transactionId: number; sessionId: string; apiVersion: number; creationDateTime: string; eventName: string; eventData: string };

async function upload(sessionId: string, entitlementId: string, records: Record_[]) {
  const m = meters[entitlementId];
  const version = await versionOf(entitlementId);
  const col = <T>(f: (r: Record_) => T) => records.map(f);
  {
    const at = new Date();
    const { rows } = await pool.query({
      name: "baseline.record",
      text: RECORD_USAGE,
      values: [
        m.tenantId, entitlementId, sessionId, at, version, true,
        col((r) => String(r.transactionId)), col((r) => r.sessionId), col((r) => r.apiVersion), col((r) => r.creationDateTime),
        col((r) => r.eventName), col((r) => r.eventData), col(() => "Counted"), col(() => null), col(() => m.assetId),
        col(() => "api-calls"), col((r) => String((JSON.parse(r.eventData) as { amount?: number }).amount ?? 1)),
        col(() => m.periodKey), col(() => m.periodStart), col(() => m.periodEnd), col(() => "CumulativeCounter"), col(() => true),
        ...limitValues(m.tenantId, sessionId),
      ],
    });
    return { entitlementResolved: rows[0].live, counted: rows[0].inserted.length };
  }
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const url = new URL(req.url ?? "/", "http://baseline");
    const [, op, sessionId] = url.pathname.split("/");
    claimsOf(req.headers.authorization)
      .then((claims): Promise<object> => {
        if (claims.sessionId !== sessionId) throw new Error("token of another session");
        return op === "consume"
          ? consume(sessionId, claims.entitlementId, url.searchParams.get("amount") ?? "1")
          : upload(sessionId, claims.entitlementId, JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record_[]);
      })
      .then((answer) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer)))
      .catch((error: unknown) => res.writeHead(500, { "content-type": "text/plain" }).end(String(error)));
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
process.on("SIGTERM", () => server.close(() => void pool.end().then(() => process.exit(0))));
