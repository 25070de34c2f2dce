// npm run test:e2e: finds a Chromium (Playwright's own, else Debian's, installing Debian's as root
// when neither exists; docs/architecture.md section 9), exports CHROMIUM_PATH and runs `playwright test`.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";

const root = fileURLToPath(new URL("..", import.meta.url));
const debianChromium = "/usr/bin/chromium";

function findChromium(): string | null {
  if (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
  const bundled = chromium.executablePath();
  if (bundled && existsSync(bundled)) return bundled;
  if (existsSync(debianChromium)) return debianChromium;
  return null;
}

function installDebianChromium(): void {
  process.stderr.write("[e2e] no Chromium found; installing Debian's chromium with apt-get\n");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update"], ["install", "-y", "chromium"]]) {
    const result = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (result.status !== 0) break;
  }
}

let executable = findChromium();
if (!executable && userInfo().uid === 0) {
  installDebianChromium();
  executable = findChromium();
}
if (!executable) {
  process.stderr.write(
    "[e2e] No Chromium found: run `sudo apt-get install -y chromium` (or `npx playwright install chromium` where downloads work), then retry.\n",
  );
  process.exit(1);
}

const child = spawn(
  process.execPath,
  [path.join(root, "node_modules/@playwright/test/cli.js"), "test", ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, CHROMIUM_PATH: executable },
  },
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
