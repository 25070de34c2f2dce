// npm run bench [scenario ...]: runs benchmark scenarios (scripts/bench/*.ts) and merges their
// results into bench/results.json, keyed by scenario, so scenarios can be run and added separately.
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { repoRoot } from "./lib/runtime-env.ts";
import { runRuntimeBench } from "./bench/runtime.ts";
import { runWebhookFanOut } from "./bench/webhooks.ts";
import { runPortabilityBench } from "./bench/portability.ts";
import { runReportsBench } from "./bench/reports.ts";
import { runMeteringBench } from "./bench/metering.ts";
import { runScaleBench } from "./bench/scale.ts";
import { runSoakBench } from "./bench/soak.ts";
import { runBackofficeBench } from "./bench/backoffice.ts";

const scenarios: Record<string, () => Promise<object>> = {
  webhooks: () => runWebhookFanOut(),
  runtime: () => runRuntimeBench(),
  portability: () => runPortabilityBench(),
  reports: () => runReportsBench(),
  metering: () => runMeteringBench(),
  scale: () => runScaleBench(),
  soak: () => runSoakBench({ minutes: minutes() }),
  backoffice: () => runBackofficeBench(),
};

/** `--minutes N` (the soak's length). */
function minutes(): number | undefined {
  const at = process.argv.indexOf("--minutes");
  if (at < 0) return undefined;
  const n = Number(process.argv[at + 1]);
  if (!Number.isInteger(n) || n < 2) {
    process.stderr.write("--minutes is a whole number, at least 2\n");
    process.exit(2);
  }
  return n;
}

async function main() {
  const args = process.argv.slice(2);
  const asked = args.filter((arg, i) => !arg.startsWith("--") && args[i - 1] !== "--minutes");
  const unknown = asked.filter((name) => !scenarios[name]);
  if (unknown.length) {
    process.stderr.write(
      `unknown scenario(s): ${unknown.join(", ")}; known: ${Object.keys(scenarios).join(", ")}\n`,
    );
    process.exit(2);
  }
  const file = path.join(repoRoot, "bench/results.json");
  const results = existsSync(file)
    ? (JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>)
    : {};
  // Scale (and backoffice, on its data set) seed millions of rows and soak runs for half an hour:
  // they run only when named.
  const everyDay = Object.keys(scenarios).filter((name) => !["scale", "soak", "backoffice"].includes(name));
  for (const name of asked.length ? asked : everyDay) {
    const result = await scenarios[name]();
    results[name] = { ...result, measuredAt: new Date().toISOString() };
    process.stdout.write(`${name}: ${JSON.stringify(result)}\n`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
