// npm run test:mutation [-- stryker options]: runs Stryker (stryker.config.mjs) and prints the
// mutation score per area from its JSON report (docs/testing.md). Options after `--` go to
// `stryker run`, e.g. `--mutate server/domain/licensing/activation/lease-terms.ts`, except
// `--area <name>`, which mutates that area's rule files (RULE_FILES) with its own incremental file.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const report = path.join(root, "reports/mutation/mutation.json");

type Mutant = { status: string };
type Report = { files: Record<string, { mutants: Mutant[] }> };

/** The area a file belongs to: its folder under server/domain, or `http` for server/http. */
function areaOf(file: string): string {
  const relative = path.relative(root, path.resolve(root, file)).split(path.sep).join("/");
  const domain = /^server\/domain\/([^/.]+)\//.exec(relative);
  if (domain) return domain[1];
  if (relative.startsWith("server/http/")) return "http";
  return "other";
}

type Tally = {
  killed: number;
  survived: number;
  noCoverage: number;
  timeout: number;
  invalid: number;
  ignored: number;
};
const empty = (): Tally => ({ killed: 0, survived: 0, noCoverage: 0, timeout: 0, invalid: 0, ignored: 0 });

function tally(into: Tally, status: string) {
  if (status === "Killed") into.killed++;
  else if (status === "Survived") into.survived++;
  else if (status === "NoCoverage") into.noCoverage++;
  else if (status === "Timeout") into.timeout++;
  else if (status === "Ignored") into.ignored++;
  // CompileError and RuntimeError: the mutant is not valid code; it counts for nothing.
  else into.invalid++;
}

/** Stryker's mutation score: detected (killed or timed out) over valid, ignored mutants apart. */
const score = (t: Tally) => {
  const detected = t.killed + t.timeout;
  const valid = detected + t.survived + t.noCoverage;
  return valid === 0 ? null : (detected / valid) * 100;
};

function scoresByArea(data: Report): Map<string, Tally> {
  const areas = new Map<string, Tally>();
  for (const [file, { mutants }] of Object.entries(data.files)) {
    const area = areaOf(file);
    if (!areas.has(area)) areas.set(area, empty());
    for (const m of mutants) tally(areas.get(area)!, m.status);
  }
  return new Map([...areas].sort(([a], [b]) => a.localeCompare(b)));
}

function printScores(data: Report) {
  const areas = scoresByArea(data);
  const total = empty();
  const rows = [["area", "score %", "killed", "timeout", "survived", "no coverage", "ignored", "invalid"]];
  for (const [area, t] of areas) {
    for (const k of Object.keys(total) as (keyof Tally)[]) total[k] += t[k];
    const s = score(t);
    rows.push([
      area,
      s === null ? "n/a" : s.toFixed(1),
      ...[t.killed, t.timeout, t.survived, t.noCoverage, t.ignored, t.invalid].map(String),
    ]);
  }
  const s = score(total);
  rows.push([
    "all",
    s === null ? "n/a" : s.toFixed(1),
    ...[total.killed, total.timeout, total.survived, total.noCoverage, total.ignored, total.invalid].map(
      String,
    ),
  ]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  process.stdout.write("\nMutation score per area (docs/testing.md)\n");
  for (const r of rows)
    process.stdout.write(
      r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ") + "\n",
    );
}

/**
 * Per area, the files that hold its business rules as functions a unit test can call (docs/testing.md
 * "Scores"): the set each area's score is measured on. Files whose rules run in SQL or need the
 * database are left to the integration suite, where no mutant reaches (docs/testing.md "What the
 * score measures").
 */
const RULE_FILES: Record<string, string[]> = {
  identity: ["identity/staff-roles/staff-roles.ts", "identity/scopes.ts"],
  licensing: [
    "licensing/activation/lease-terms.ts",
    "licensing/activation/license-state.ts",
    "licensing/activation/check-capacity.ts",
    "licensing/activation/ip-allowed.ts",
    "licensing/activation/activation-idempotency.ts",
    "licensing/activation/component-matching.ts",
    "licensing/sessions/seat-utilization.ts",
  ],
  metering: [
    "metering/quantity.ts",
    "metering/consumption/ladder.ts",
    "metering/periods/period.ts",
    "metering/overage/severity.ts",
    "metering/balances/balance-charge.ts",
    "metering/usage/event-mapping.ts",
  ],
  webhooks: [
    "webhooks/delivery/retry-schedule.ts",
    "webhooks/delivery/settings.ts",
    "webhooks/delivery/delivery-request.ts",
    "webhooks/events/envelope.ts",
    "webhooks/subscriptions/subscription-states.ts",
    "webhooks/subscriptions/event-type-patterns.ts",
    "webhooks/subscriptions/subscription-filters.ts",
    "webhooks/subscriptions/signing-secret.ts",
    "webhooks/subscriptions/receiver-url.ts",
    "webhooks/subscriptions/callback-scopes.ts",
  ],
  "rate-limits": ["rate-limits/rate-limit-policies.ts", "rate-limits/hit-rate-limits.ts"],
};

/** `--area <name>` → `--mutate <its rule files> --incrementalFile reports/mutation/<name>-incremental.json`. */
function expandArea(args: string[]): string[] {
  const at = args.indexOf("--area");
  if (at < 0) return args;
  const area = args[at + 1];
  const files = RULE_FILES[area];
  if (!files) {
    process.stderr.write(`--area takes one of: ${Object.keys(RULE_FILES).join(", ")}.\n`);
    process.exit(2);
  }
  return [
    ...args.slice(0, at),
    ...args.slice(at + 2),
    "--mutate",
    files.map((f) => `server/domain/${f}`).join(","),
    "--incrementalFile",
    `reports/mutation/${area}-incremental.json`,
  ];
}

const args = expandArea(process.argv.slice(2));
const scoresOnly = args[0] === "--scores";
let status = 0;
if (!scoresOnly) {
  const run = spawnSync(
    process.execPath,
    [path.join(root, "node_modules/@stryker-mutator/core/bin/stryker.js"), "run", ...args],
    {
      cwd: root,
      stdio: "inherit",
    },
  );
  status = run.status ?? 1;
}
if (existsSync(report)) printScores(JSON.parse(readFileSync(report, "utf8")) as Report);
else process.stderr.write(`No report at ${path.relative(root, report)}.\n`);
process.exit(status);
