// npm run dev: next dev plus a worker that restarts when its code changes, on the same database
// setup as npm start (embedded PostgreSQL when DATABASE_URL is unset, migrations applied).
import { hostname } from "node:os";
import { resolveRuntimeEnv } from "./lib/runtime-env.ts";
import { bindHost, nextBin, superviseChildren, workerArgs } from "./lib/supervise.ts";

const log = (line: string) => process.stderr.write(`[dev] ${line}\n`);

async function main() {
  const { env, stop } = await resolveRuntimeEnv({ log, ownSignals: true });
  env.NEXT_TELEMETRY_DISABLED ??= "1";
  const port = Number(env.PORT);
  const supervisor = superviseChildren(
    [
      {
        name: "web",
        command: process.execPath,
        args: [nextBin, "dev", "-p", String(port), "-H", bindHost(env, hostname())],
        env,
      },
      { name: "worker", command: process.execPath, args: workerArgs(true), env },
    ],
    stop,
    log,
  );
  if (await supervisor.waitForPort(port)) {
    log(
      `ready on ${env.NEXTAUTH_URL}; sign in after npm run cli -- tenant create --name Acme --json (or npm run seed)`,
    );
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
