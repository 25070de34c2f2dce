// Runs scripts/bench/baseline-server.ts as its own process on the given database and measures its
// activation with the same autocannon settings as the real one.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { repoRoot } from "../lib/runtime-env.ts";
import { load, type LoadResult } from "./load.ts";

export async function measureBaseline(databaseUrl: string): Promise<LoadResult> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/bench/baseline-server.ts"], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`baseline server exited with ${code}`)));
      createInterface({ input: child.stdout! }).once("line", (line) => resolve((JSON.parse(line) as { port: number }).port));
    });
    return await load(`http://127.0.0.1:${port}`, {
      method: "POST",
      path: "/activate",
      headers: { "content-type": "application/json" },
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ activationCode: "BASELINE", fingerprint: `fp-${randomUUID()}` }) }),
    });
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }
}
