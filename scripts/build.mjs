// npm run build: the production build. esbuild compiles the processes that run outside Next.js
// (web process, its Next.js child, worker, start supervisor, CLI, migrations, seed) from
// TypeScript to JavaScript in dist/, so production runs them with plain `node`; then `next build`
// builds the app. Plain JavaScript itself, so a fresh clone builds with nothing but `npm install`.
//   node scripts/build.mjs            both
//   node scripts/build.mjs --server   dist/ only (a second or two; the test servers run it each time)
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

/** dist/<name>.js ← source. Paths in dist/ are what scripts/lib/supervise.ts and package.json run. */
export const entries = {
  "web/main": "server/web/main.ts",
  "web/next-process": "server/web/next-process.ts",
  worker: "server/worker.ts",
  start: "scripts/start.ts",
  cli: "scripts/cli.ts",
  migrate: "scripts/migrate.ts",
  seed: "scripts/seed.ts",
};

export async function buildServer() {
  await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(entries).map(([out, src]) => [out, src])),
    outdir: "dist",
    bundle: true,
    // Packages stay in node_modules, loaded by Node as they are (Next.js, Prisma's runtime, pg…).
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    logLevel: "warning",
    // Shared modules once: every entry imports its chunks rather than its own copy.
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
  });
}

const onlyServer = process.argv.includes("--server");
const started = Date.now();
await buildServer();
process.stderr.write(`[build] dist/ compiled in ${Date.now() - started} ms\n`);
if (!onlyServer) {
  const next = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? "1" },
  });
  process.exit(next.status ?? 1);
}
