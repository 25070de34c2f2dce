import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The int and hardening projects run their files in shared worker processes (vitest.config.ts
// `isolate: false`): what one file leaves in the process, the next file of that worker inherits.
const root = fileURLToPath(new URL("../..", import.meta.url));

const rules: { pattern: RegExp; why: string }[] = [
  {
    pattern: /process\.env\.DATABASE_URL\s*=[^=]/,
    why: "points the process-wide database elsewhere for every later file: use useProcessDatabase (tests/helpers/db.ts)",
  },
  {
    pattern: /\bvi\.(mock|doMock|stubEnv|stubGlobal)\(/,
    why: "a module mock or stub outlives the file in a shared worker",
  },
];

/** "file: why" for each line of a suite file that would leak into the files after it. */
export function sharedStateLeaks(files: { file: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { file, text } of files)
    text.split("\n").forEach((line, i) => {
      for (const rule of rules) if (rule.pattern.test(line)) found.push(`${file}:${i + 1}: ${rule.why}`);
    });
  return found;
}

function suiteFiles(dir: string): { file: string; text: string }[] {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .map((file) => ({ file, text: readFileSync(path.join(root, file), "utf8") }));
}

describe("integration and hardening files leave their worker process as they found it", () => {
  it("no file sets the process-wide database or mocks a module", () => {
    expect(sharedStateLeaks([...suiteFiles("tests/int"), ...suiteFiles("tests/hardening")])).toEqual([]);
  });

  it("the check finds each kind of leak, and not a comparison", () => {
    expect(
      sharedStateLeaks([
        { file: "a.int.test.ts", text: 'const x = 1;\nprocess.env.DATABASE_URL = "postgres://x";' },
        {
          file: "b.int.test.ts",
          text: 'vi.mock("../server/db/pool.ts");\nif (process.env.DATABASE_URL === url) {}',
        },
      ]),
    ).toEqual([
      "a.int.test.ts:2: points the process-wide database elsewhere for every later file: use useProcessDatabase (tests/helpers/db.ts)",
      "b.int.test.ts:1: a module mock or stub outlives the file in a shared worker",
    ]);
  });
});
