import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { repoRoot } from "./test-server.ts";

export type ClientRun = { code: number; stdout: string; stderr: string; json: any };

let bundle: Promise<string> | undefined;

/**
 * The reference client (scripts/license-client.ts) compiled once per test process into one
 * plain-JavaScript file, as an application ships it. Starting it under `node --import tsx`
 * instead cost about 0.35 s of CPU per call (the loader and the transform), a test of fifteen
 * calls 5 s of CPU: on a loaded machine that alone outlasted the 30 s test timeout.
 */
function compiledClient(): Promise<string> {
  bundle ??= (async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "license-client-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    const outfile = path.join(dir, "license-client.mjs");
    await build({
      entryPoints: [path.join(repoRoot, "scripts/license-client.ts")],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      logLevel: "error",
    });
    return outfile;
  })();
  return bundle;
}

/** Runs the reference client as its own process; every call names its state file. */
export async function licenseClient(...args: string[]): Promise<ClientRun> {
  const client = await compiledClient();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [client, ...args],
      { cwd: repoRoot, env: { ...process.env, NODE_OPTIONS: "" } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        let json: unknown;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = undefined;
        }
        resolve({ code, stdout, stderr, json });
      },
    );
  });
}
