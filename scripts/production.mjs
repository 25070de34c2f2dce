// The production entries (npm start, web, worker, migrate, cli, seed) run their compiled JavaScript
// in dist/ with plain `node`, no TypeScript loader:
//   node scripts/production.mjs <start|cli|migrate|seed> [arguments…]
// A missing or stale dist/ is compiled first (esbuild, a few seconds), and a missing Next.js build
// is built before anything that serves pages (a few minutes, once), so a fresh clone runs after
// `npm install` alone. Plain JavaScript itself, so it needs no loader either.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const [name, ...args] = process.argv.slice(2);
const known = ["start", "cli", "migrate", "seed"];
if (!known.includes(name)) {
  process.stderr.write(`usage: node scripts/production.mjs <${known.join("|")}> [arguments]\n`);
  process.exit(2);
}

/** The newest modification time under the compiled sources (dist/ is stale when it is older). */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (/\.(ts|tsx|mjs|json)$/.test(entry.name)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

const entry = path.join(root, "dist", `${name}.js`);
const servesPages = name === "start" && !args.includes("--worker");
const staleServer =
  !existsSync(entry) ||
  statSync(entry).mtimeMs <
    Math.max(newestSource(path.join(root, "server")), newestSource(path.join(root, "scripts")));
const missingNext = servesPages && !existsSync(path.join(root, ".next/BUILD_ID"));
if (staleServer || missingNext) {
  if (missingNext)
    process.stderr.write("[build] no production build found; building (a few minutes the first time)\n");
  const built = spawnSync(
    process.execPath,
    [path.join(root, "scripts/build.mjs"), ...(missingNext ? [] : ["--server"])],
    { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } },
  );
  if (built.status !== 0) process.exit(built.status ?? 1);
}

// The compiled entry reads its own arguments from process.argv, as if Node had started it.
process.argv = [process.argv[0], entry, ...args];
await import(pathToFileURL(entry).href);
