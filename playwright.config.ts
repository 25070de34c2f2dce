import { defineConfig, devices } from "@playwright/test";

/**
 * e2e: Playwright drives the back office and the portal in Chromium against the production web
 * entry (server/web/main.ts: the runtime lane in front of the production build, as `npm start` runs it,
 * on a fresh database; started by e2e/global-setup.ts). Chromium is Debian's unless
 * CHROMIUM_PATH names another (`npm run test:e2e` finds one; docs/architecture.md section 2).
 */
export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  // Spec files run on two workers side by side (a test mostly waits on its page), each in a world
  // of its own (e2e/global-setup.ts); a file's tests run in order. E2E_WORKERS=1 for one at a time.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    ...devices["Desktop Chrome"],
    viewport: { width: 1360, height: 860 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [{ name: "chromium" }],
});
