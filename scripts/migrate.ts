/**
 * `npm run migrate`: applies pending migrations to DATABASE_URL (or to the embedded PostgreSQL
 * when it is unset), as `npm start` does before it serves.
 */
import { resolveRuntimeEnv } from "./lib/runtime-env.ts";

resolveRuntimeEnv({ migrate: true })
  .then((runtime) => runtime.stop())
  .catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
