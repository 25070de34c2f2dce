// A bare worker process for the crash test (tests/int/webhooks-crash.int.test.ts): the real task
// list on DATABASE_URL, nothing else, so the test can SIGKILL it mid-delivery.
import { Logger, run } from "graphile-worker";
import { taskList } from "../../server/jobs/index.ts";

const runner = await run({
  connectionString: process.env.DATABASE_URL!,
  taskList,
  concurrency: 2,
  pollInterval: 100,
  noHandleSignals: true,
  logger: new Logger(() => () => {}),
});
process.stdout.write("worker ready\n");
await runner.promise;
