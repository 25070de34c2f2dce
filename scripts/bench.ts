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

const scenarios: Record<string, () => Promise<object>> = {
  webhooks: () => runWebhookFanOut(),
  runtime: () => runRuntimeBench(),
  portability: () => runPortabilityBench(),
  reports: () => runReportsBench(),
  metering: () => runMeteringBench(),
  scale: () => runScaleBench(),
};

async function main() {
  const asked = process.argv.slice(2);
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
  // Scale seeds millions of rows: it runs only when named.
  const everyDay = Object.keys(scenarios).filter((name) => name !== "scale");
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
