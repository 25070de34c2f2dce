// Where an activation's time goes: the real domain functions (activate, then issueLicenseToken)
// run in this process over a pg pool that counts and times every statement, one activation at a
// time, so the numbers are per activation without contention. Compared with the same activation
// over HTTP (one connection), the difference is the web stack's share.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { clientOn } from "../../server/db/client.ts";
import { activate } from "../../server/domain/licensing/activation/activate.ts";
import { issueLicenseToken } from "../../server/domain/licensing/tokens/issue-license-token.ts";

type StatementStats = { count: number; totalMs: number };

export type ActivationProfile = {
  activations: number;
  /** Mean wall time of activate() (the transaction, holding the entitlement's row lock from its first statement on). */
  activateMs: number;
  /** Mean wall time of issueLicenseToken() after it (feature resolution and the RS256 signature). */
  issueTokenMs: number;
  /** Statements sent per activation (BEGIN and COMMIT included) and the time spent waiting for them. */
  statementsPerActivation: number;
  dbMsPerActivation: number;
  /**
   * Mean time the entitlement's row stays locked (from the SELECT ... FOR UPDATE to COMMIT). All
   * activations of one license queue on that lock, so 1000 / lockHeldMs bounds its activations/s.
   */
  entitlementLockHeldMs: number;
  /** Per statement shape ("SELECT LicenseSession", "INSERT OutboxEvent", ...): count and ms per activation, biggest first. */
  byStatement: Record<string, { perActivation: number; msPerActivation: number }>;
  /** Mean latency of one POST /activations/jwt over HTTP with nothing else running. */
  httpSerialMs: number;
};

/** "SELECT LicenseSession", "UPDATE Device", "BEGIN": enough to see which statements an activation repeats. */
function shape(text: string): string {
  const sql = text.replace(/\s+/g, " ").trim();
  const verb = sql.split(" ")[0].toUpperCase();
  const table = /\b(?:FROM|INTO|UPDATE)\s+(?:"public"\.)?"?(\w+)"?/i.exec(sql)?.[1];
  return table ? `${verb} ${table}` : verb;
}

const round = (n: number) => Math.round(n * 100) / 100;

export async function profileActivation(options: { databaseUrl: string; baseUrl: string; activationCode: string; activations?: number }): Promise<ActivationProfile> {
  const n = options.activations ?? 40;
  const stats = new Map<string, StatementStats>();
  let recording = false;
  let lockedAt: number | undefined;
  let lockHeldMs = 0;
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 4 });
  pool.on("connect", (client) => {
    const original = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const started = performance.now();
      const first = args[0] as string | { text?: string };
      const text = typeof first === "string" ? first : (first?.text ?? "");
      // The activation's lock statement: `SELECT * FROM "Entitlement" ... FOR UPDATE`.
      if (recording && /FROM "Entitlement"[^]*FOR UPDATE/.test(text)) lockedAt = started;
      const record = () => {
        if (!recording) return;
        const key = shape(text);
        const entry = stats.get(key) ?? { count: 0, totalMs: 0 };
        entry.count++;
        entry.totalMs += performance.now() - started;
        stats.set(key, entry);
        if (key === "COMMIT" && lockedAt !== undefined) {
          lockHeldMs += performance.now() - lockedAt;
          lockedAt = undefined;
        }
      };
      // pg.Pool#query calls the client with a callback; Prisma's transactions use the promise form.
      const last = args[args.length - 1];
      if (typeof last === "function") {
        args[args.length - 1] = (...cbArgs: unknown[]) => {
          record();
          return (last as (...a: unknown[]) => unknown)(...cbArgs);
        };
        return original(...args);
      }
      const result = original(...args);
      if (result && typeof (result as Promise<unknown>).then === "function") (result as Promise<unknown>).then(record, record);
      return result;
    };
  });
  const db = clientOn(pool);
  const meta = { kind: "Online" as const, ip: null, idempotencyKey: null, user: null };
  try {
    // Warm-up: connections, the signing key cache, Prisma's query plans.
    for (let i = 0; i < 3; i++) await issueLicenseToken(db, await activate(db, { activationCode: options.activationCode, fingerprint: `profile-warm-${randomUUID()}` }, meta));
    let activateMs = 0;
    let issueTokenMs = 0;
    recording = true;
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const outcome = await activate(db, { activationCode: options.activationCode, fingerprint: `profile-${randomUUID()}` }, meta);
      const t1 = performance.now();
      await issueLicenseToken(db, outcome);
      activateMs += t1 - t0;
      issueTokenMs += performance.now() - t1;
    }
    recording = false;

    let httpMs = 0;
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const res = await fetch(`${options.baseUrl}/api/v1/provision/activations/jwt`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ activationCode: options.activationCode, fingerprint: `profile-http-${randomUUID()}` }),
      });
      await res.text();
      if (!res.ok) throw new Error(`profile activation over HTTP: ${res.status}`);
      httpMs += performance.now() - t0;
    }

    const entries = [...stats.entries()].sort((a, b) => b[1].totalMs - a[1].totalMs);
    const statements = entries.reduce((sum, [, s]) => sum + s.count, 0);
    const dbMs = entries.reduce((sum, [, s]) => sum + s.totalMs, 0);
    return {
      activations: n,
      activateMs: round(activateMs / n),
      issueTokenMs: round(issueTokenMs / n),
      statementsPerActivation: round(statements / n),
      dbMsPerActivation: round(dbMs / n),
      entitlementLockHeldMs: round(lockHeldMs / n),
      byStatement: Object.fromEntries(entries.map(([key, s]) => [key, { perActivation: round(s.count / n), msPerActivation: round(s.totalMs / n) }])),
      httpSerialMs: round(httpMs / n),
    };
  } finally {
    await db.$disconnect();
    await pool.end().catch(() => undefined);
  }
}
