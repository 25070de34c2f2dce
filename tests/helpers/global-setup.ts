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
  return async () => {
    await server.stop();
  };
}
