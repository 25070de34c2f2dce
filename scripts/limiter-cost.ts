// Measures the rate limiter's own statement (one round trip per limited request) against a
// round trip that does nothing, serially on one fresh database: `tsx scripts/limiter-cost.ts`.
// docs/performance.md "Rate limits" quotes it beside the activation bench.
import { randomUUID } from "node:crypto";
import { createTestDatabase, testPostgres } from "../tests/helpers/test-server.ts";
import { migrate } from "../server/db/migrate.ts";

const N = Number(process.env.LIMITER_COST_N ?? 2000);
const server = await testPostgres();
const database = await createTestDatabase(server.adminUrl, "lic_limiter");
try {
  await migrate(database.url);
  process.env.DATABASE_URL = database.url;
  process.env.RATE_LIMITS = "activation.ip=1000000000/60,activation.code=1000000000/60";
  const { pgPool } = await import("../server/db/pool.ts");
  const { hitRateLimits } = await import("../server/domain/rate-limits/hit-rate-limits.ts");
  const codes = Array.from({ length: 16 }, () => randomUUID());
  const time = async (label: string, fn: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 200; i++) await fn(i); // warm-up: prepared statements, caches
    const started = performance.now();
    for (let i = 0; i < N; i++) await fn(i);
    const ms = (performance.now() - started) / N;
    process.stdout.write(`${label}: ${ms.toFixed(3)} ms\n`);
    return ms;
  };
  const empty = await time("SELECT 1 round trip", () => pgPool().query({ name: "one", text: "SELECT 1" }));
  const limiter = await time("limiter statement (activation: ip + code, 16 codes)", (i) =>
    hitRateLimits({ codeLookupKey: codes[i % 16] }, [
      { name: "activation.ip", key: "127.0.0.1" },
      { name: "activation.code", key: codes[i % 16] },
    ]),
  );
  process.stdout.write(`limiter beyond an empty round trip: ${(limiter - empty).toFixed(3)} ms\n`);
  await pgPool().end();
} finally {
  await database.drop();
  await server.stop();
}
