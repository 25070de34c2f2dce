// Runs scripts/bench/baseline-server.ts as its own process on the given database with the
// recorded script, so it is measured from outside with the same load generator as the real server.
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { repoRoot } from "../lib/runtime-env.ts";
import type { BaselineScript } from "./baseline-server.ts";

export type BaselineServer = { baseUrl: string; port: number; stop: () => Promise<void> };

export async function startBaseline(databaseUrl: string, script: BaselineScript): Promise<BaselineServer> {
  const file = path.join(tmpdir(), `bench-baseline-${process.pid}.json`);
  await writeFile(file, JSON.stringify(script));
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/bench/baseline-server.ts"], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "production", BASELINE_SCRIPT: file },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`baseline server exited with ${code}`)));
    createInterface({ input: child.stdout! }).once("line", (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
  return {
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}
