import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "@": fileURLToPath(new URL(".", import.meta.url)) };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        // Unit tests sit beside their modules (foo.ts + foo.test.ts); tests/unit holds the tree-wide ones.
        test: {
          name: "unit",
          include: [
            "server/**/*.test.ts",
            "scripts/**/*.test.ts",
            "components/**/*.test.ts",
            "tests/unit/**/*.test.ts",
          ],
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
          environment: "node",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "int",
          include: ["tests/int/**/*.int.test.ts"],
          environment: "node",
          globalSetup: ["tests/helpers/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          // Each file gets its own tenants; files run in parallel against one server and database.
          fileParallelism: true,
          maxWorkers: 2,
          // Files share their worker process and its loaded modules (importing the domain afresh
          // for each file was half the suite's CPU). So a file leaves process-wide state as it
          // found it: the process-wide database only through useProcessDatabase
          // (tests/helpers/db.ts), environment variables restored, no module mocks
          // (tests/unit/test-isolation.test.ts checks the first and the last).
          isolate: false,
        },
      },
      {
        resolve: { alias },
        test: {
          // docs/security.md "Suites": isolation sweep, races, faults, fuzzing, token confusion and
          // a scan of every log line the service wrote during the run (its own server, logs captured).
          name: "hardening",
          include: ["tests/hardening/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/hardening/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: true,
          maxWorkers: 2,
          // As the int project: files share their worker process.
          isolate: false,
        },
      },
    ],
  },
});
