import { execFile } from "node:child_process";
import path from "node:path";

/**
 * The reference client (scripts/license-client.ts) run as its own process, the way a shipped
 * application uses the runtime surface. Answers its exit code and its JSON output.
 */
export function licenseClient(
  ...args: string[]
): Promise<{ code: number; json: Record<string, unknown> | undefined; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", path.resolve("scripts/license-client.ts"), ...args],
      { env: { ...process.env, NODE_OPTIONS: "" } },
      (error, stdout, stderr) => {
        let json: Record<string, unknown> | undefined;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = undefined;
        }
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, json, stderr });
      },
    );
  });
}
