// The benchmark's baseline (DESIGN.md section 11): the activation's irreducible work — one
// transaction inserting a session row and one RS256 signature with a 2048-bit key — in a bare
// node:http server with pg and jose. Started as its own process by scripts/bench/baseline.ts,
// like the real server, so both are measured from outside with the same load generator.
import { createHash, generateKeyPairSync, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT } from "jose";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.BASELINE_POOL_MAX ?? 20) });
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });

await pool.query(`CREATE TABLE IF NOT EXISTS bench_baseline_session (
  id uuid PRIMARY KEY, fingerprint_hash text NOT NULL, activated_at timestamptz NOT NULL, lease_expires_at timestamptz NOT NULL)`);

async function activate(body: { activationCode?: string; fingerprint?: string }): Promise<string> {
  const hash = createHash("sha256").update(String(body.fingerprint), "utf8").digest("hex");
  const id = randomUUID();
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("INSERT INTO bench_baseline_session (id, fingerprint_hash, activated_at, lease_expires_at) VALUES ($1, $2, now(), now() + interval '1 hour')", [id, hash]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  const issuedAt = Math.floor(Date.now() / 1000);
  return new SignJWT({ ent: "baseline", dev_fp: hash })
    .setProtectedHeader({ alg: "RS256", kid: "baseline", typ: "JWT" })
    .setIssuer("urn:licensing:tenant:baseline")
    .setAudience("license")
    .setSubject(id)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + 3600)
    .setJti(randomUUID())
    .sign(privateKey);
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    activate(JSON.parse(Buffer.concat(chunks).toString("utf8")) as { fingerprint?: string })
      .then((token) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(token)))
      .catch((error: unknown) => res.writeHead(500, { "content-type": "text/plain" }).end(String(error)));
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
process.on("SIGTERM", () => server.close(() => void pool.end().then(() => process.exit(0))));
