// A bare worker process for the crash test (tests/int/webhooks/crash.int.test.ts): the real worker
// (jobs and webhook dispatcher) on DATABASE_URL, nothing else, so the test can SIGKILL it mid-delivery.
import { Logger } from "graphile-worker";
import { runWorker } from "../../server/jobs/run-worker.ts";
import { logger } from "../../server/log.ts";

const runner = await runWorker({
  connectionString: process.env.DATABASE_URL!,
  concurrency: 2,
  pollInterval: 100,
  logger: new Logger(() => () => {}),
  log: logger.child({}, { level: "silent" }),
});
process.stdout.write("worker ready\n");
await runner.promise;
