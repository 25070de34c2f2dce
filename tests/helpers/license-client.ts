import { execFile } from "node:child_process";
import path from "node:path";
import { repoRoot } from "./test-server.ts";

export type ClientRun = { code: number; stdout: string; stderr: string; json: any };

/**
 * Runs the reference client (scripts/license-client.ts) as its own process, with `node --import
 * tsx` from the repository (where tsx resolves); every call names its state file.
 */
export function licenseClient(...args: string[]): Promise<ClientRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", path.join(repoRoot, "scripts/license-client.ts"), ...args],
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
