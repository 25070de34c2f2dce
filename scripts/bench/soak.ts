// `npm run bench -- soak [--minutes N]` (default 30): a steady mixed runtime load on the
// production server for N minutes: 90 % check-in, 5 % renew, 3 % consume, 1 % activation (a new
// device) and 1 % usage upload (a batch of 10 records), at 70 % of the peak the same mix reached
// in a 15-second unthrottled run just before. Each minute: requests/s, p50/p99, errors, and the
// web process tree's resident memory (VmRSS, Next.js child included). At the end: whether p99 and
// memory stayed flat (last minute against the second: the first warms caches and plans), and the
// tables' and indexes' sizes, dead tuples and autovacuum runs (the bloat report), with the
// autovacuum settings they ran under.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import autocannon, { type AutocannonRequest } from "autocannon";
import pg from "pg";
import { createDb } from "../../server/db/client.ts";
import { systemContext } from "../../server/domain/context.ts";
import { createClient } from "../../server/domain/identity/oauth-clients.ts";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { defaultKeyIssuancePolicy } from "../../server/domain/entitlements/entitlement/key-issuance-policy.schemas.ts";
import { startTestServer, TEST_APP_SECRET, TEST_RATE_LIMITS } from "../../tests/helpers/test-server.ts";
import { readProcs } from "./cpu.ts";
import { BENCH_CONNECTIONS } from "./load.ts";
import { seedMetering } from "./metering.ts";

const ACTIVATIONS = "/api/v1/provision/activations";
const USAGE = "/api/v1/provision/usage";
const json = { "content-type": "application/json" };
/** One hundred slots of the mix (90/5/3/1/1), the rare kinds spread out. */
const RARE: Record<number, Kind> = { 3: "renew", 23: "renew", 44: "renew", 63: "renew", 83: "renew", 10: "consume", 43: "consume", 76: "consume", 50: "activation", 75: "upload" };
const MIX: Kind[] = Array.from({ length: 100 }, (_, i): Kind => RARE[i] ?? "check-in");
type Kind = "check-in" | "renew" | "consume" | "activation" | "upload";
const FLAT = 0.1;

export type SoakMinute = {
  minute: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  rssMiB: number;
  loadAverage: number;
};
export type SoakResult = {
  scenario: "soak";
  minutes: number;
  mix: Record<Kind, number>;
  peakRequestsPerSecond: number;
  targetRequestsPerSecond: number;
  perMinute: SoakMinute[];
  /** Last minute over the second (the first warms up): flat when neither grew by more than 10 %. */
  trend: { p99Growth: number; rssGrowth: number; flat: boolean; errors: number };
  bloat: { table: string; liveTuples: number; deadTuples: number; tableMiB: number; indexesMiB: number; autovacuums: number; autoanalyzes: number }[];
  autovacuumSettings: Record<string, string>;
};

/** Resident memory of the process and every process under it (MiB). */
function treeRssMiB(root: number): number {
  const procs = readProcs();
  const pids = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs)
      if (pids.has(p.ppid) && !pids.has(p.pid)) {
        pids.add(p.pid);
        grew = true;
      }
  }
  let kib = 0;
  for (const pid of pids) {
    try {
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // ended meanwhile
    }
  }
  return Math.round(kib / 1024);
}

export async function runSoakBench(options: { minutes?: number; log?: (line: string) => void } = {}): Promise<SoakResult> {
  const minutes = options.minutes ?? Number(process.env.BENCH_SOAK_MINUTES ?? 30);
  const log = options.log ?? ((line: string) => process.stderr.write(`[bench:soak] ${line}\n`));
  process.env.RATE_LIMITS ??= TEST_RATE_LIMITS;
  log("starting the production server on a fresh database");
  const server = await startTestServer();
  process.env.APP_SECRET = TEST_APP_SECRET;
  const db = createDb(server.databaseUrl, { max: 4 });
  try {
    // The metering bench's tenant: 16 metered licenses with sessions (consume, upload, renew, check-in).
    const seed = await seedMetering(server, db, log);
    const sessions = [...seed.one, ...seed.spread];
    // Activations go to a license of its own with seats enough for every one of them.
    const scoped = tenantDb(db, seed.tenantId);
    const entitlement = await scoped.entitlement.create({
      data: {
        tenantId: seed.tenantId,
        name: "Soak activations",
        features: [],
        activationPolicy: {},
        claimBasedActivation: { leaseTime: "PT1H", gracePeriod: "P1D", numberOfSeats: 1_000_000, isFloatingLicense: false },
        keyIssuancePolicy: defaultKeyIssuancePolicy(),
        productIds: [],
      },
    });
    const activationCode = await issueCode(server.baseUrl, db, seed.tenantId, entitlement.id);
    await db.$executeRawUnsafe("ANALYZE");

    let transactionId = Date.now() * 1000;
    let slot = 0;
    let next = 0;
    const mixed: AutocannonRequest = {
      method: "POST",
      setupRequest: (req) => {
        const kind = MIX[slot++ % MIX.length];
        const s = sessions[next++ % sessions.length];
        const auth = { authorization: `Bearer ${s.token}` };
        switch (kind) {
          case "check-in":
          case "renew":
            return { ...req, method: "POST", path: `${ACTIVATIONS}/${s.sessionId}/${kind}`, headers: auth, body: undefined };
          case "consume":
            return { ...req, method: "POST", path: `${USAGE}/consume/${s.sessionId}/api-calls?amount=1`, headers: auth, body: undefined };
          case "activation":
            return { ...req, method: "POST", path: `${ACTIVATIONS}/jwt`, headers: json, body: JSON.stringify({ activationCode, fingerprint: `soak-${randomUUID()}` }) };
          case "upload":
            return {
              ...req,
              method: "POST",
              path: `${USAGE}/sessions/${s.sessionId}/transactions`,
              headers: { ...json, ...auth },
              body: JSON.stringify(
                Array.from({ length: 10 }, () => ({
                  transactionId: transactionId++,
                  sessionId: s.sessionId,
                  apiVersion: 1,
                  creationDateTime: new Date().toISOString(),
                  eventName: "ApiCall",
                  eventData: '{"metricName":"api-calls","amount":1}',
                })),
              ),
            };
        }
      },
    };

    log("peak: the mix unthrottled for 15 s");
    const peak = await autocannon({ url: server.baseUrl, connections: BENCH_CONNECTIONS, duration: 15, requests: [mixed] });
    const peakRequestsPerSecond = Math.round((peak["2xx"] + peak.non2xx) / peak.duration);
    const target = Math.max(1, Math.round(peakRequestsPerSecond * 0.7));
    log(`peak ${peakRequestsPerSecond}/s (non-2xx ${peak.non2xx}); soaking at ${target}/s for ${minutes} min`);

    const perMinute: SoakMinute[] = [];
    for (let minute = 1; minute <= minutes; minute++) {
      const r = await autocannon({ url: server.baseUrl, connections: BENCH_CONNECTIONS, duration: 60, overallRate: target, requests: [mixed] });
      const row: SoakMinute = {
        minute,
        requestsPerSecond: Math.round((r["2xx"] + r.non2xx) / r.duration),
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        errors: r.errors + r.timeouts,
        non2xx: r.non2xx,
        rssMiB: treeRssMiB(server.pid),
        loadAverage: Math.round(loadavg()[0] * 10) / 10,
      };
      perMinute.push(row);
      log(JSON.stringify(row));
    }

    const second = perMinute[Math.min(1, perMinute.length - 1)];
    const last = perMinute[perMinute.length - 1];
    const growth = (from: number, to: number) => Math.round(((to - from) / Math.max(1, from)) * 100) / 100;
    const errors = perMinute.reduce((sum, m) => sum + m.errors + m.non2xx, 0);
    const p99Growth = growth(second.p99Ms, last.p99Ms);
    const rssGrowth = growth(second.rssMiB, last.rssMiB);
    const trend = { p99Growth, rssGrowth, flat: p99Growth <= FLAT && rssGrowth <= FLAT, errors };

    const { bloat, autovacuumSettings } = await bloatReport(server.databaseUrl);
    const mix = Object.fromEntries((["check-in", "renew", "consume", "activation", "upload"] as Kind[]).map((k) => [k, MIX.filter((m) => m === k).length])) as Record<Kind, number>;
    const out = [
      "",
      `Soak: ${minutes} min at ${target}/s (70 % of the mix's peak ${peakRequestsPerSecond}/s), mix ${JSON.stringify(mix)}`,
      "| minute | req/s | p50 ms | p99 ms | errors + non-2xx | web RSS MiB | load avg |",
      "|---|---|---|---|---|---|---|",
      ...perMinute.map((m) => `| ${m.minute} | ${m.requestsPerSecond} | ${m.p50Ms} | ${m.p99Ms} | ${m.errors + m.non2xx} | ${m.rssMiB} | ${m.loadAverage} |`),
      `p99 ${p99Growth >= 0 ? "+" : ""}${Math.round(p99Growth * 100)} %, RSS ${rssGrowth >= 0 ? "+" : ""}${Math.round(rssGrowth * 100)} % (last minute over the second): ${trend.flat ? "flat" : "NOT flat"}; ${errors} errors`,
      "",
      "| table | live | dead | table MiB | indexes MiB | autovacuums | autoanalyzes |",
      "|---|---|---|---|---|---|---|",
      ...bloat.map((b) => `| ${b.table} | ${b.liveTuples} | ${b.deadTuples} | ${b.tableMiB} | ${b.indexesMiB} | ${b.autovacuums} | ${b.autoanalyzes} |`),
      `autovacuum settings: ${JSON.stringify(autovacuumSettings)}`,
      "",
    ];
    process.stdout.write(`${out.join("\n")}\n`);
    return { scenario: "soak", minutes, mix, peakRequestsPerSecond, targetRequestsPerSecond: target, perMinute, trend, bloat, autovacuumSettings };
  } finally {
    await db.$disconnect();
    await server.stop();
  }
}

async function issueCode(baseUrl: string, db: ReturnType<typeof createDb>, tenantId: string, entitlementId: string): Promise<string> {
  const scopes = ["provision.activation-code.*"];
  const { client, clientSecret } = await createClient(systemContext(db, tenantId, "bench"), { name: "soak", kind: "admin", scopes });
  const tokenRes = await fetch(`${baseUrl}/auth/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.clientId, client_secret: clientSecret, scope: scopes.join(" ") }),
  });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  const issued = await fetch(`${baseUrl}/api/v1/provision/operational/entitlements/${entitlementId}/activation-codes`, {
    method: "POST",
    headers: { ...json, authorization: `Bearer ${token}` },
    body: "{}",
  });
  if (!issued.ok) throw new Error(`issuing an activation code: ${issued.status} ${await issued.text()}`);
  return ((await issued.json()) as { codes: { code: string }[] }).codes[0].code;
}

/** Sizes, dead tuples and autovacuum runs of the ten largest tables, and the settings they ran under. */
export async function bloatReport(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ table: string; live: string; dead: string; t: string; i: string; av: string; aa: string }>(
      `SELECT relname AS table, n_live_tup AS live, n_dead_tup AS dead,
              round(pg_table_size(relid) / 1048576.0, 1) AS t, round(pg_indexes_size(relid) / 1048576.0, 1) AS i,
              autovacuum_count AS av, autoanalyze_count AS aa
       FROM pg_stat_user_tables ORDER BY pg_total_relation_size(relid) DESC LIMIT 10`,
    );
    const settings = await client.query<{ name: string; setting: string }>(
      `SELECT name, setting FROM pg_settings WHERE name LIKE 'autovacuum%' ORDER BY name`,
    );
    return {
      bloat: rows.map((r) => ({
        table: r.table,
        liveTuples: Number(r.live),
        deadTuples: Number(r.dead),
        tableMiB: Number(r.t),
        indexesMiB: Number(r.i),
        autovacuums: Number(r.av),
        autoanalyzes: Number(r.aa),
      })),
      autovacuumSettings: Object.fromEntries(settings.rows.map((r) => [r.name, r.setting])),
    };
  } finally {
    await client.end();
  }
}
