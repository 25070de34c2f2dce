// npm test: every suite the project has, as CI runs it (docs/testing.md "How npm test runs").
//
// The stages run side by side where nothing orders them, because one after the other left one of
// CI's two cores idle much of the time (a test waits on its server, a browser on a page):
//   lint, unit and the production build at once; then typecheck, integration and e2e at once,
//   each suite on its own server and database; hardening once integration is done, then the
//   cluster test (hosts in network namespaces: root only; elsewhere it says so and is skipped). Each stage's output is printed whole when it ends, under its name,
//   so parallel output never interleaves; a line a minute says what is still running, and every
//   stage also writes its log to .data/test-logs/<stage>.log as it goes.
//
//   npm test                 every stage
//   npm test -- int e2e      only these stages (and no stage they would wait for)
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const logDir = path.join(root, ".data/test-logs");

/**
 * `needs`: stages that must pass first (else this one is skipped); `after`: only wait for them;
 * `unless`: why this machine cannot run the stage, if it cannot (the stage is then skipped, said).
 */
type Stage = { name: string; script: string; needs: string[]; after: string[]; unless?: () => string | null };

const stages: Stage[] = [
  { name: "lint", script: "lint", needs: [], after: [] },
  // After the build, which writes the route types (.next/types) the program includes.
  { name: "typecheck", script: "typecheck", needs: [], after: ["build"] },
  { name: "unit", script: "test:unit", needs: [], after: [] },
  { name: "build", script: "test:build", needs: [], after: [] },
  { name: "int", script: "test:int", needs: ["build"], after: [] },
  { name: "e2e", script: "test:e2e", needs: ["build"], after: [] },
  // Beside e2e rather than beside both suites: three servers and a browser on two cores made
  // tests wait past their timeouts.
  { name: "hardening", script: "test:hardening", needs: ["build"], after: ["int"] },
  // After hardening: its hosts, HAProxy and load beside e2e's browser, not beside three servers.
  {
    name: "cluster",
    script: "test:cluster",
    needs: ["build"],
    after: ["int", "hardening"],
    unless: () =>
      process.platform !== "linux" || process.getuid?.() !== 0
        ? "the cluster test makes network namespaces, which needs root on Linux (CI runs as root); run `sudo npm run test:cluster`"
        : null,
  },
];

type Outcome = { ok: boolean; seconds: number; notRun?: boolean };

const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !stages.some((s) => s.name === name));
if (unknown.length) {
  process.stderr.write(
    `unknown stage(s): ${unknown.join(", ")}; stages: ${stages.map((s) => s.name).join(", ")}\n`,
  );
  process.exit(2);
}
const selected = chosen.length ? stages.filter((s) => chosen.includes(s.name)) : stages;
const selectedNames = new Set(selected.map((s) => s.name));

const started = Date.now();
const running = new Map<string, number>();
const outcomes = new Map<string, Outcome>();
const elapsed = (since: number) => Math.round((Date.now() - since) / 1000);

function run(stage: Stage): Promise<Outcome> {
  return new Promise((resolve) => {
    mkdirSync(logDir, { recursive: true });
    const log = createWriteStream(path.join(logDir, `${stage.name}.log`));
    const chunks: Buffer[] = [];
    const at = Date.now();
    running.set(stage.name, at);
    const child = spawn("npm", ["run", "-s", stage.script], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    for (const stream of [child.stdout, child.stderr])
      stream.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        log.write(chunk);
      });
    child.on("close", (code, signal) => {
      running.delete(stage.name);
      log.end();
      const outcome = { ok: code === 0, seconds: elapsed(at) };
      const verdict = outcome.ok ? "passed" : `FAILED (${signal ?? `exit ${code}`})`;
      process.stdout.write(`\n━━━ ${stage.name}: ${verdict} in ${outcome.seconds} s ━━━\n`);
      process.stdout.write(Buffer.concat(chunks));
      process.stdout.write(`━━━ end of ${stage.name} ━━━\n`);
      resolve(outcome);
    });
  });
}

const heartbeat = setInterval(() => {
  const now = [...running].map(([name, at]) => `${name} ${elapsed(at)} s`).join(", ");
  if (now) process.stdout.write(`[npm test ${elapsed(started)} s] running: ${now}\n`);
}, 60_000);

// A stage starts once the selected stages it needs have passed and those it comes after have ended.
const done = new Map<string, Promise<Outcome>>();
function schedule(stage: Stage): Promise<Outcome> {
  const existing = done.get(stage.name);
  if (existing) return existing;
  const promise = (async () => {
    const wait = (names: string[]) =>
      Promise.all(
        names
          .filter((name) => selectedNames.has(name))
          .map((name) => schedule(stages.find((s) => s.name === name)!)),
      );
    const needed = await wait(stage.needs);
    await wait(stage.after);
    if (needed.some((o) => !o.ok)) {
      process.stdout.write(`\n━━━ ${stage.name}: skipped (a stage it needs failed) ━━━\n`);
      return { ok: false, seconds: 0 };
    }
    const cannot = stage.unless?.();
    if (cannot) {
      process.stdout.write(`\n━━━ ${stage.name}: NOT RUN on this machine: ${cannot} ━━━\n`);
      return { ok: true, seconds: 0, notRun: true };
    }
    return run(stage);
  })();
  promise.then((outcome) => outcomes.set(stage.name, outcome));
  done.set(stage.name, promise);
  return promise;
}

await Promise.all(selected.map(schedule));
clearInterval(heartbeat);

process.stdout.write(`\nnpm test: ${elapsed(started)} s\n`);
for (const stage of selected) {
  const o = outcomes.get(stage.name)!;
  const verdict = o.notRun ? "NOT RUN" : o.ok ? "passed" : "FAILED";
  process.stdout.write(`  ${verdict.padEnd(7)}  ${stage.name.padEnd(10)} ${o.seconds} s\n`);
}
process.exit(selected.every((s) => outcomes.get(s.name)!.ok) ? 0 : 1);
