// npm start | npm run web | npm run worker: production-mode web server and/or worker, with the
// embedded PostgreSQL when DATABASE_URL is unset. Runs compiled (dist/start.js, started by
// scripts/production.mjs, which builds what is missing first), like the processes it supervises.
import { hostname } from "node:os";
import { recordServerUrl, resolveRuntimeEnv } from "./lib/runtime-env.ts";
import { bindHost, webArgs, superviseChildren, workerArgs, type ChildSpec } from "./lib/supervise.ts";

const log = (line: string) => process.stderr.write(`[start] ${line}\n`);

async function main() {
  const flags = new Set(process.argv.slice(2));
  const unknown = [...flags].filter((flag) => flag !== "--web" && flag !== "--worker");
  if (unknown.length) {
    log(`unknown option ${unknown.join(" ")}; usage: npm start [-- --web | --worker]`);
    process.exit(2);
  }
  const onlyWeb = flags.has("--web") && !flags.has("--worker");
  const onlyWorker = flags.has("--worker") && !flags.has("--web");
  const withWeb = !onlyWorker;
  const withWorker = !onlyWeb;

  const { env, stop, embedded } = await resolveRuntimeEnv({ log, ownSignals: true });
  env.NEXT_TELEMETRY_DISABLED ??= "1";
  Object.assign(env, { NODE_ENV: "production" });
  const port = Number(env.PORT);

  const children: ChildSpec[] = [];
  if (withWeb) {
    children.push({
      name: "web",
      command: process.execPath,
      args: webArgs(port, bindHost(env, hostname())),
      env,
    });
  }
  if (withWorker) children.push({ name: "worker", command: process.execPath, args: workerArgs(), env });
  const supervisor = superviseChildren(children, stop, log);

  if (!withWeb) {
    log(`worker running${embedded ? " (embedded PostgreSQL)" : ""}; Ctrl-C to stop`);
    return;
  }
  if (!(await supervisor.waitForPort(port))) return;
  const url = env.PUBLIC_URL || env.NEXTAUTH_URL || `http://localhost:${port}`;
  await recordServerUrl(url);
  process.stderr.write(
    [
      "",
      `  Licensing service: ${url}${withWorker ? "" : "  (web only: start a worker with npm run worker)"}`,
      `  Database:          ${embedded ? "embedded PostgreSQL (.data/pg)" : "DATABASE_URL"}`,
      "  Sign in:           create a tenant and its first admin with",
      "                       npm run cli -- tenant create --name Acme --json",
      "                     (prints adminEmail / adminPassword and API client credentials),",
      "                     or load demo data with npm run seed",
      `  Health:            ${url}/api/health  ${url}/api/ready`,
      "",
      "",
    ].join("\n"),
  );
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
