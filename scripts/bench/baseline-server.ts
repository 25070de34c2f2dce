// The runtime benchmark's same-work baseline (docs/architecture.md section 11): a bare node:http server with
// pg and jose that does what our activation, renew and check-in handlers do to the database and
// to tokens, and nothing else: it replays the statements recorded from the real handlers
// (scripts/bench/same-work.ts: same texts, same prepared-statement names, same transactions, on
// one connection per request), verifies the license token with jose where the route does (its
// signature once per token, its lifetime at every use, as verifyLicenseToken does), and signs one
// RS256 token where the handler does. Started as its own process by
// scripts/bench/baseline.ts; prints {"port"} when listening.
//   POST /activate?template=N   POST /renew/{sessionId}   POST /check-in/{sessionId}
// Env: DATABASE_URL, BASELINE_SCRIPT (a JSON file, see BaselineScript).
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { JWTPayload } from "jose";
import pg from "pg";
import { licenseKeys, readBody } from "./baseline-license-keys.ts";
import { HEX64_RE, UUID_RE, freshTokens, type Json, type Template } from "./same-work.ts";

export type BaselineScript = {
  tenantId: string;
  kid: string;
  /** The tenant's private signing key (JWK). */
  privateJwk: Record<string, unknown>;
  activation: Template[];
  renew: Template;
  checkIn: Template;
  /** The renew/check-in recordings' own session, device and fingerprint hash, and each bench session's. */
  recordedSession: SessionIds;
  sessions: Record<string, SessionIds>;
};
type SessionIds = { sessionId: string; deviceId: string; fingerprintHash: string };

const script = JSON.parse(readFileSync(process.env.BASELINE_SCRIPT!, "utf8")) as BaselineScript;
// Pipeline mode, as the service's pool (server/db/pool.ts): statements the handler sent in one
// round trip are sent in one here too.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20, pipeline: true } as pg.PoolConfig);
const { sign, verified } = licenseKeys(script);
const activationTokens = script.activation.map(freshTokens);
const renewTokens = freshTokens(script.renew);
const checkInTokens = freshTokens(script.checkIn);

function substitute(value: Json, map: Map<string, string>, shiftMs: number): unknown {
  if (typeof value === "string")
    return value
      .replace(UUID_RE, (m) => map.get(m.toLowerCase()) ?? m)
      .replace(HEX64_RE, (m) => map.get(m) ?? m);
  if (Array.isArray(value)) return value.map((v) => substitute(v, map, shiftMs));
  if (value && typeof value === "object") {
    if ("$date" in value) return new Date(new Date(value.$date as string).getTime() + shiftMs);
    if ("$hex" in value) return Buffer.from(value.$hex as string, "hex");
    return JSON.stringify(substitute(JSON.parse(JSON.stringify(value)) as Json, map, shiftMs) as Json);
  }
  return value;
}

/** Each fresh id or hash gets a new value of its kind, unless `known` names its replacement. */
function freshMap(tokens: string[], known: Map<string, string> = new Map()): Map<string, string> {
  const map = new Map(known);
  for (const t of tokens) if (!map.has(t)) map.set(t, t.includes("-") ? randomUUID() : randomBytes(32).toString("hex"));
  return map;
}

async function replay(template: Template, map: Map<string, string>): Promise<void> {
  const shiftMs = Date.now() - template.recordedAt;
  const client = await pool.connect();
  try {
    const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
    for (let i = 0; i < template.statements.length; ) {
      const trip = template.statements[i].trip;
      const sent: Promise<unknown>[] = [];
      stream.cork();
      for (; i < template.statements.length && template.statements[i].trip === trip; i++) {
        const s = template.statements[i];
        const values = s.params.map((p) => (p.fresh ? substitute(p.value, map, shiftMs) : constant(p.value)));
        sent.push(client.query(s.name ? { name: s.name, text: s.text, values } : { text: s.text, values }));
      }
      stream.uncork();
      const settled = await Promise.allSettled(sent);
      const failed = settled.find((r) => r.status === "rejected");
      if (failed) throw (failed as PromiseRejectedResult).reason;
    }
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

function constant(value: Json): unknown {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    if ("$date" in value) return new Date(value.$date as string);
    if ("$hex" in value) return Buffer.from(value.$hex as string, "hex");
    return JSON.stringify(value);
  }
  return value;
}




function sessionMap(sessionId: string): Map<string, string> {
  const own = script.sessions[sessionId];
  const rec = script.recordedSession;
  if (!own) throw new Error(`unknown session ${sessionId}`);
  return new Map([
    [rec.sessionId, own.sessionId],
    [rec.deviceId, own.deviceId],
    [rec.fingerprintHash, own.fingerprintHash],
  ]);
}

let next = 0;
async function handle(req: IncomingMessage): Promise<unknown> {
  const url = new URL(req.url ?? "/", "http://x");
  const [, op, sessionId] = url.pathname.split("/");
  if (op === "activate") {
    // The body is parsed as the route parses it; its fingerprint's hash is a fresh value in the replay.
    JSON.parse(await readBody(req));
    const pick = url.searchParams.get("template");
    const i = pick === "spread" ? next++ % script.activation.length : Number(pick ?? 0);
    const map = freshMap(activationTokens[i]);
    await replay(script.activation[i], map);
    return sign({ ent: randomUUID(), tid: script.tenantId, dev_fp: randomBytes(32).toString("hex"), lic_state: "Active", floating: false, products: [], features: {} }, randomUUID());
  }
  const claims = await verified(req);
  await readBody(req);
  if (op === "renew") {
    await replay(script.renew, freshMap(renewTokens, sessionMap(sessionId)));
    const rest: JWTPayload = { ...claims };
    for (const name of ["iat", "exp", "jti", "iss", "aud", "sub"]) delete rest[name];
    return { token: await sign(rest, claims.sub!) };
  }
  if (op === "check-in") {
    await replay(script.checkIn, freshMap(checkInTokens, sessionMap(sessionId)));
    return { sessionId, ok: true };
  }
  throw new Error(`no route ${url.pathname}`);
}

const server = createServer((req, res) => {
  handle(req).then(
    (body) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body)),
    (error: unknown) => res.writeHead(500, { "content-type": "text/plain" }).end(String(error)),
  );
});
server.listen(0, "127.0.0.1", () =>
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`),
);
process.on("SIGTERM", () => server.close(() => void pool.end().then(() => process.exit(0))));
