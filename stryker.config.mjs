// Mutation testing (docs/testing.md): `npm run test:mutation`. Not part of `npm test`.
//
// Stryker mutates server/domain and server/http and runs the tests that can reach a mutant in the
// process Stryker controls: the unit tests (vitest.mutation.config.ts). The integration, hardening
// and e2e suites talk over HTTP to a production server built by `next build` from the sources as
// they were before mutation, so no mutant reaches them; docs/testing.md "What the score measures"
// says what that leaves out.
//
// Incremental: the results of the last run are kept in reports/mutation/stryker-incremental.json
// (not committed); a rerun tests only the mutants in code, or covered by tests, that changed.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts", related: true },
  checkers: ["typescript"],
  tsconfigFile: "tsconfig.json",
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  mutate: [
    "server/domain/**/*.ts",
    "server/http/**/*.ts",
    // Tests colocated with their modules are not code to mutate.
    "!server/**/*.test.ts",
  ],
  coverageAnalysis: "perTest",
  incremental: true,
  incrementalFile: "reports/mutation/stryker-incremental.json",
  // Module-level values (tables, constants built at import) need a fresh module per mutant, which
  // costs a whole test-file reload each: left out, and counted as "ignored" in the report.
  ignoreStatic: true,
  // The machine is shared; `npm run test:mutation -- --concurrency 4` on a machine of your own.
  concurrency: 1,
  timeoutMS: 20_000,
  reporters: ["clear-text", "progress", "json", "html"],
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  thresholds: { high: 80, low: 60, break: null },
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
};

export default config;
