import pg from "pg";
import { createTestDatabase, testPostgres, TEST_RATE_LIMITS } from "../tests/helpers/test-server.ts";
import { migrate } from "../server/db/migrate.ts";
import { readProcs } from "../scripts/bench/cpu.ts";

const server = await testPostgres();
const database = await createTestDatabase(server.adminUrl, "lic_limhot");
process.env.DATABASE_URL = database.url;
process.env.RATE_LIMITS = TEST_RATE_LIMITS;
try {
  await migrate(database.url);
  const { countRateLimits } = await import("../server/domain/rate-limits/hit-rate-limits.ts");
  const { pgPool } = await import("../server/db/pool.ts");
  const c = new pg.Client({ connectionString: database.url });
  await c.connect();
  const backends = async () => (await c.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")).rows.map((r) => r.pid);
  for (const [mode, ff] of [["hot", 100], ["spread", 100], ["hot", 10], ["hot", 100], ["spread", 100], ["hot", 10]] as const) {
    await c.query(`TRUNCATE "RateLimitCounter"; ALTER TABLE "RateLimitCounter" SET (fillfactor = ${ff}); VACUUM FULL "RateLimitCounter"`);
    await pgPool().query("SELECT 1");
    const before = new Map(readProcs().map((p) => [p.pid, p.cpuMs]));
    let n = 0;
    const end = Date.now() + 5000;
    await Promise.all(Array.from({ length: 64 }, async (_, w) => {
      while (Date.now() < end) {
        const key = mode === "hot" ? "127.0.0.1" : `10.0.0.${w}`;
        await countRateLimits({}, [{ name: "activation.ip", key }, { name: "activation.code", key: mode === "hot" ? "CODE" : `CODE${w}` }]);
        n++;
      }
    }));
    const byPid = new Map(readProcs().map((p) => [p.pid, p.cpuMs]));
    const pgMs = (await backends()).reduce((s, pid) => s + Math.max(0, (byPid.get(pid) ?? 0) - (before.get(pid) ?? 0)), 0);
    const st = (await c.query(`SELECT n_tup_upd, n_tup_hot_upd, pg_relation_size('"RateLimitCounter"') AS size FROM pg_stat_user_tables WHERE relname = 'RateLimitCounter'`)).rows[0];
    console.log(JSON.stringify({ mode, fillfactor: ff, perSecond: Math.round(n / 5), pgCpuMsPerCall: +(pgMs / n).toFixed(3), ...st }));
  }
  await c.end();
  await pgPool().end();
} finally {
  await database.drop();
}
process.exit(0);
