import type { TestProject } from "vitest/node";
import { startTestServer, TEST_APP_SECRET } from "./test-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
  }
}

/** One production server and one fresh database for the whole integration run. */
export default async function setup(project: TestProject) {
  const server = await startTestServer();
  project.provide("baseUrl", server.baseUrl);
  project.provide("databaseUrl", server.databaseUrl);
  process.env.TEST_BASE_URL = server.baseUrl;
  process.env.TEST_DATABASE_URL_MIGRATED = server.databaseUrl;
  process.env.APP_SECRET = TEST_APP_SECRET;
  // Webhook jobs run in the test processes (tests/helpers/webhooks.ts), whichever file's runner
  // takes them: every process delivers to local receivers, with the retry schedule compressed.
  process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "1";
  process.env.WEBHOOKS_RETRY_SCALE ??= "0.001";
  return async () => {
    await server.stop();
  };
}
