import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { repoRoot, startTestServer, TEST_APP_SECRET } from "../helpers/test-server.ts";
import { leaksIn } from "./log-scan.ts";

declare module "vitest" {
  export interface ProvidedContext {
    logFile: string;
  }
}

/**
 * One production server for the hardening suites, like the integration run's, but logging at
 * `info` (every request line) into a file: the log scan reads every line written during the run.
 */
export default async function setup(project: TestProject) {
  const dir = path.join(repoRoot, ".data/hardening");
  mkdirSync(dir, { recursive: true });
  // Earlier runs' logs go: the directory holds this run's only.
  for (const old of readdirSync(dir))
    if (old.startsWith("server-")) rmSync(path.join(dir, old), { force: true });
  const logFile = path.join(dir, `server-${process.pid}.log`);
  const server = await startTestServer({ logFile, extraEnv: { LOG_LEVEL: "info" } });
  project.provide("baseUrl", server.baseUrl);
  project.provide("databaseUrl", server.databaseUrl);
  project.provide("logFile", logFile);
  process.env.TEST_BASE_URL = server.baseUrl;
  process.env.TEST_DATABASE_URL_MIGRATED = server.databaseUrl;
  process.env.APP_SECRET = TEST_APP_SECRET;
  process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "1";
  process.env.WEBHOOKS_RETRY_SCALE ??= "0.001";
  return async () => {
    await server.stop();
    // The whole run's log, after the last line is flushed: no token, secret or fingerprint in it.
    const leaks = leaksIn(readFileSync(logFile, "utf8"));
    if (leaks.length)
      throw new Error(`The service logged credentials or fingerprints:\n${leaks.slice(0, 20).join("\n")}`);
  };
}
