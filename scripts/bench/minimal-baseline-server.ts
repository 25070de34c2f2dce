// The minimal-work baseline (README "Benchmark"): a bare node:http server with pg and jose doing
// only what each runtime job strictly needs, on tables of its own (bench_minimal_*) in the bench's
// database, so our ratio to it shows what our statements and schema add (where the same-work
// baseline shows what our stack adds):
//   check-in   one UPDATE of the session by primary key;
//   renew      that UPDATE, then one RS256 signature;
//   activation lock the license row, insert the session, commit (one pipelined round trip), sign;
//   consume    one conditional UPDATE of the meter's counter.
// Renew, check-in and consume authenticate the caller as the route does: the bearer token's
// RS256 signature checked once per token, its lifetime at every use. Started as its own process by
// scripts/bench/minimal-baseline.ts; prints {"port"} when listening.
//   POST /activate?license=N|spread   POST /renew/{id}   POST /check-in/{id}   POST /consume/{id}?amount=N
// Env: DATABASE_URL, MINIMAL_SETUP (a JSON file, see MinimalSetup).
import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { JWTPayload } from "jose";
import pg from "pg";
import { licenseKeys, readBody } from "./baseline-license-keys.ts";

export type MinimalSetup = {
  tenantId: string;
  kid: string;
  /** The tenant's private signing key (JWK): the bench's tokens verify against its public half. */
  privateJwk: Record<string, unknown>;
  /** How many licenses (and meters) to create; activation `spread` cycles through them. */
  licenses: number;
  /** Session ids the load will renew, check in or consume on, each with its license's index. */
  sessions: { sessionId: string; license: number }[];
};

const setup = JSON.parse(readFileSync(process.env.MINIMAL_SETUP!, "utf8")) as MinimalSetup;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20, pipeline: true } as pg.PoolConfig);
const { sign, verified } = licenseKeys(setup);
const licenseIds = Array.from({ length: setup.licenses }, () => randomUUID());
const licenseOf = new Map(setup.sessions.map((s) => [s.sessionId, licenseIds[s.license]]));

async function prepareTables(): Promise<void> {
  // A plain client: the DDL is one multi-statement text, which pipeline mode does not take.
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`
      DROP TABLE IF EXISTS bench_minimal_session, bench_minimal_license, bench_minimal_meter;
      CREATE TABLE bench_minimal_license (id uuid PRIMARY KEY, seats int NOT NULL);
      CREATE TABLE bench_minimal_session (
        id uuid PRIMARY KEY,
        license_id uuid NOT NULL REFERENCES bench_minimal_license (id),
        fingerprint_hash text NOT NULL,
        lease_expires_at timestamptz NOT NULL,
        last_contact_at timestamptz
      );
      CREATE TABLE bench_minimal_meter (id uuid PRIMARY KEY, used bigint NOT NULL, quota bigint NOT NULL);`);
    await admin.query("INSERT INTO bench_minimal_license SELECT unnest($1::uuid[]), 1000000", [licenseIds]);
    await admin.query("INSERT INTO bench_minimal_meter SELECT unnest($1::uuid[]), 0, 1000000000000", [licenseIds]);
    await admin.query(
      `INSERT INTO bench_minimal_session SELECT s, l, md5(s::text), now() + interval '1 hour', now()
       FROM unnest($1::uuid[], $2::uuid[]) AS t (s, l)`,
      [setup.sessions.map((s) => s.sessionId), setup.sessions.map((s) => licenseIds[s.license])],
    );
    await admin.query("ANALYZE bench_minimal_license, bench_minimal_session, bench_minimal_meter");
  } finally {
    await admin.end();
  }
}




const TOUCH = {
  name: "minimal_touch",
  text: `UPDATE bench_minimal_session SET lease_expires_at = now() + interval '1 hour', last_contact_at = now()
         WHERE id = $1 RETURNING lease_expires_at`,
};
const LOCK = { name: "minimal_lock", text: "SELECT seats FROM bench_minimal_license WHERE id = $1 FOR UPDATE" };
const INSERT = {
  name: "minimal_insert",
  text: `INSERT INTO bench_minimal_session (id, license_id, fingerprint_hash, lease_expires_at)
         VALUES ($1, $2, $3, now() + interval '1 hour')`,
};
const CONSUME = {
  name: "minimal_consume",
  text: "UPDATE bench_minimal_meter SET used = used + $2 WHERE id = $1 AND used + $2 <= quota RETURNING used",
};

/** BEGIN, lock, insert, COMMIT sent together: the activation's one round trip. */
async function activate(licenseId: string, fingerprintHash: string, sessionId: string): Promise<void> {
  const client = await pool.connect();
  try {
    const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
    stream.cork();
    const sent = [
      client.query("BEGIN"),
      client.query({ ...LOCK, values: [licenseId] }),
      client.query({ ...INSERT, values: [sessionId, licenseId, fingerprintHash] }),
      client.query("COMMIT"),
    ];
    stream.uncork();
    const settled = await Promise.allSettled(sent);
    const failed = settled.find((r) => r.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

let next = 0;
async function handle(req: IncomingMessage): Promise<unknown> {
  const url = new URL(req.url ?? "/", "http://x");
  const [, op, sessionId] = url.pathname.split("/");
  if (op === "activate") {
    const body = JSON.parse(await readBody(req)) as { fingerprint: string };
    const pick = url.searchParams.get("license");
    const licenseId = licenseIds[pick === "spread" ? next++ % licenseIds.length : Number(pick ?? 0)];
    const fingerprintHash = createHash("sha256").update(body.fingerprint).digest("hex");
    const id = randomUUID();
    await activate(licenseId, fingerprintHash, id);
    return sign({ ent: licenseId, tid: setup.tenantId, dev_fp: fingerprintHash, lic_state: "Active", floating: false, products: [], features: {} }, id);
  }
  const claims = await verified(req);
  await readBody(req);
  if (op === "renew" || op === "check-in") {
    const { rowCount } = await pool.query({ ...TOUCH, values: [sessionId] });
    if (rowCount !== 1) throw new Error(`no session ${sessionId}`);
    if (op === "check-in") return { sessionId, ok: true };
    const rest: JWTPayload = { ...claims };
    for (const name of ["iat", "exp", "jti", "iss", "aud", "sub"]) delete rest[name];
    return { token: await sign(rest, claims.sub!) };
  }
  if (op === "consume") {
    const amount = Number(url.searchParams.get("amount") ?? 1);
    const { rows } = await pool.query<{ used: string }>({ ...CONSUME, values: [licenseOf.get(sessionId), amount] });
    return { allowed: rows.length === 1, usage: rows[0]?.used };
  }
  throw new Error(`no route ${url.pathname}`);
}

await prepareTables();
const server = createServer((req, res) => {
  handle(req).then(
    (body) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body)),
    (error: unknown) => res.writeHead(500, { "content-type": "text/plain" }).end(String(error)),
  );
});
server.listen(0, "127.0.0.1", () =>
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`),
);
process.on("SIGTERM", () =>
  server.close(
    () =>
      void pool
        .query("DROP TABLE IF EXISTS bench_minimal_session, bench_minimal_license, bench_minimal_meter")
        .catch(() => undefined)
        .then(() => pool.end())
        .then(() => process.exit(0)),
  ),
);
