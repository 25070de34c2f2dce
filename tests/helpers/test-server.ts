import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, openSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startEmbeddedPostgres } from "../../server/db/embedded.ts";
import { migrate } from "../../server/db/migrate.ts";
import { webArgs } from "../../scripts/lib/supervise.ts";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/** Fixed secrets for test servers; the test process uses the same ones to seed data directly. */
export const TEST_APP_SECRET = "test-app-secret-0123456789abcdef0123456789";
/** Service-wide limits of test servers: every limit counted, none reached by ordinary tests. */
export const TEST_RATE_LIMITS = [
  "activation.ip",
  "activation.code",
  "token.client",
  "token.failed_secret",
  "usage.session",
]
  .map((name) => `${name}=1000000/60`)
  .join(",");
export const TEST_NEXTAUTH_SECRET = "test-nextauth-secret-0123456789abcdef0123";
/** The bearer token the test server's GET /api/metrics wants (METRICS_TOKEN). */
export const TEST_METRICS_TOKEN = "test-metrics-token-0123456789";

/**
 * A PostgreSQL server to create test databases on: TEST_DATABASE_URL or DATABASE_URL when set,
 * else the embedded PostgreSQL (data in .data/test-pg), so `npm test` needs nothing but Node.
 */
export async function testPostgres(): Promise<{ adminUrl: string; stop: () => Promise<void> }> {
  const given = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (given) return { adminUrl: given, stop: async () => {} };
  const embedded = await startEmbeddedPostgres({
    dataDir: path.join(repoRoot, ".data/test-pg"),
    port: Number(process.env.TEST_EMBEDDED_PG_PORT ?? 54339),
  });
  return { adminUrl: embedded.url, stop: embedded.stop };
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Creates an empty database on the server; dropped by the returned function. */
export async function createTestDatabase(
  adminUrl: string,
  prefix = "lic_test",
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return {
    url: withDatabase(adminUrl, name),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
      await c.end();
    },
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

const buildInputs = [
  "app",
  "server",
  "components",
  "public",
  "next.config.ts",
  "proxy.ts",
  "instrumentation-client.ts",
  "package-lock.json",
  "tsconfig.json",
];

/**
 * The web process and worker, compiled to dist/ (ensureServerBuild) and imported by nothing in the
 * Next.js build: changing them needs no new Next.js build.
 */
const runFromSource = new Set(["server/web", "server/worker.ts", "server/core/package-root.ts"]);

export function sourceStamp(): string {
  const hash = createHash("sha256");
  const walk = (p: string) => {
    if (!existsSync(p) || runFromSource.has(path.relative(repoRoot, p))) return;
    // Unit tests beside their modules are not part of the build.
    if (/\.test\.tsx?$/.test(p)) return;
    const stat = statSync(p);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(p).sort()) walk(path.join(p, entry));
    } else {
      hash.update(`${path.relative(repoRoot, p)}:${stat.size}:${stat.mtimeMs}\n`);
    }
  };
  for (const input of buildInputs) walk(path.join(repoRoot, input));
  return hash.digest("hex");
}

/** Compiles dist/ (scripts/build.mjs --server) unless it was compiled from these very sources. */
function ensureServerBuild(): void {
  const hash = createHash("sha256");
  const walk = (p: string) => {
    const stat = statSync(p);
    if (stat.isDirectory()) for (const entry of readdirSync(p).sort()) walk(path.join(p, entry));
    else hash.update(`${path.relative(repoRoot, p)}:${stat.size}:${stat.mtimeMs}\n`);
  };
  for (const input of ["server", "scripts", "package.json"]) walk(path.join(repoRoot, input));
  const stamp = hash.digest("hex");
  const stampFile = path.join(repoRoot, "dist/source-stamp");
  if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) return;
  const result = spawnSync(process.execPath, [path.join(repoRoot, "scripts/build.mjs"), "--server"], {
    cwd: repoRoot,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("compiling dist/ failed");
  writeFileSync(stampFile, stamp);
}

/**
 * Builds the production app (dist/ and the Next.js build, as `npm run build` does) unless the
 * current build was made from these very sources.
 */
export function ensureBuild(): void {
  ensureServerBuild();
  const stampFile = path.join(repoRoot, ".next/source-stamp");
  const stamp = sourceStamp();
  if (
    existsSync(path.join(repoRoot, ".next/BUILD_ID")) &&
    existsSync(stampFile) &&
    readFileSync(stampFile, "utf8") === stamp
  )
    return;
  const result = spawnSync(
    process.execPath,
    [path.join(repoRoot, "node_modules/next/dist/bin/next"), "build"],
    {
      cwd: repoRoot,
      stdio: "inherit",
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        NODE_ENV: "production",
        NEXT_BUILD_SKIP_TYPECHECK: "1",
      },
    },
  );
  if (result.status !== 0) throw new Error("next build failed");
  writeFileSync(stampFile, stamp);
}

/** How long a started server may take to answer /api/health (longer on a machine shared with other work). */
const healthTimeoutMs = Number(process.env.TEST_SERVER_HEALTH_TIMEOUT_MS ?? 60_000);

async function waitForHealth(
  baseUrl: string,
  child: ChildProcess,
  timeoutMs = healthTimeoutMs,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`test server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("test server did not become healthy in time");
}

export type TestServer = {
  baseUrl: string;
  databaseUrl: string;
  /** The web process's id: fault tests kill it (only a process they started). */
  pid: number;
  stop: () => Promise<void>;
};

/**
 * The real service for tests: a fresh migrated database and the production web entry
 * (server/web/main.ts: the runtime lane in front of the production build, as `npm start` runs it) on a
 * free port. Tests talk to it over HTTP only.
 */
export async function startTestServer(
  options: {
    extraEnv?: Record<string, string>;
    /** Appends the web process's stdout and stderr (its JSON log lines) to this file. */
    logFile?: string;
    /** An existing, migrated database to serve (kept on stop) instead of a fresh one. */
    databaseUrl?: string;
  } = {},
): Promise<TestServer> {
  ensureBuild();
  const server = options.databaseUrl
    ? { adminUrl: options.databaseUrl, stop: async () => {} }
    : await testPostgres();
  const database = options.databaseUrl
    ? { url: options.databaseUrl, drop: async () => {} }
    : await createTestDatabase(server.adminUrl);
  if (!options.databaseUrl) await migrate(database.url);
  const logFd = options.logFile ? openSync(options.logFile, "a") : undefined;
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, webArgs(port, "127.0.0.1"), {
    cwd: repoRoot,
    stdio: ["ignore", logFd ?? "inherit", logFd ?? "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: database.url,
      APP_SECRET: TEST_APP_SECRET,
      NEXTAUTH_SECRET: TEST_NEXTAUTH_SECRET,
      NEXTAUTH_URL: baseUrl,
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      WEBHOOKS_ALLOW_PRIVATE_URLS: "1",
      LICENSING_TEST_CLOCK: "1",
      METRICS_TOKEN: TEST_METRICS_TOKEN,
      // Files share one server and one caller address: the limits are counted but out of reach,
      // and the rate-limit tests set low ones per tenant (tests/int/platform/rate-limits.int.test.ts).
      RATE_LIMITS: process.env.RATE_LIMITS ?? TEST_RATE_LIMITS,
      // One web process: in-process counters (GET /api/metrics) are read back by tests; the
      // many-process tests ask for more.
      WEB_CONCURRENCY: "1",
      ...options.extraEnv,
    },
  });
  try {
    await waitForHealth(baseUrl, child);
  } catch (error) {
    child.kill("SIGKILL");
    await database.drop();
    await server.stop();
    throw error;
  }
  return {
    baseUrl,
    databaseUrl: database.url,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      await database.drop();
      await server.stop();
    },
  };
}
