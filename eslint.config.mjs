import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      ".next/**",
      "dist/**",
      ".data/**",
      "node_modules/**",
      "server/db/generated/**",
      "next-env.d.ts",
      "playwright-report/**",
      "test-results/**",
      ".stryker-tmp/**",
      "reports/**",
    ],
  },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // A `let` that a closure defined earlier reads (e.g. a shutdown handler) cannot be a const.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
    },
  },
];

export default config;
