import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "@": fileURLToPath(new URL(".", import.meta.url)) };

/**
 * The tests Stryker runs against each mutant (stryker.config.mjs): the unit tests, wherever they
 * live (tests/unit, or next to their module as `*.test.ts`), in the process Stryker controls.
 * Two unit tests read the repository's source files as text (the architecture rules and the
 * runtime lane's route table); under Stryker those files are instrumented copies, so those two
 * are left out here.
 */
export default defineConfig({
  resolve: { alias },
  test: {
    include: ["tests/unit/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/architecture.test.ts", "**/runtime-routes.test.ts"],
    environment: "node",
  },
});
