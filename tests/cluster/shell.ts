import { spawnSync } from "node:child_process";

/** Runs a command to completion; throws with its stderr when it fails (unless `allowFail`). */
export function sh(
  command: string,
  args: string[],
  options: { allowFail?: boolean; input?: string } = {},
): string {
  const result = spawnSync(command, args, { encoding: "utf8", input: options.input });
  if (result.status !== 0 && !options.allowFail)
    throw new Error(
      `${command} ${args.join(" ")} failed (${result.status}): ${result.stderr || result.error}`,
    );
  return result.stdout ?? "";
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every `everyMs` until it is true; throws after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  everyMs = 200,
) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return;
    await sleep(everyMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** Installs Debian's `packages` with apt when `command` is not on PATH (the test machines run as root). */
export function ensureCommand(command: string, packages: string[]): void {
  if (sh("sh", ["-c", `command -v ${command} || true`]).trim()) return;
  process.stderr.write(`[test] installing ${packages.join(" ")} (apt)\n`);
  sh("apt-get", ["update", "-q"]);
  // RUNLEVEL=1: the packages' own services (etcd's, Patroni's) must not start on the machine.
  sh("sh", [
    "-c",
    `RUNLEVEL=1 DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends ${packages.join(" ")}`,
  ]);
}

/** Runs a test's main and exits 0 when every check held, 1 when one failed or the run broke. */
export function exitWith(main: () => Promise<boolean>, log: (line: string) => void, logDir: string): void {
  main().then(
    (ok) => {
      log(ok ? "all checks hold" : `a check failed (logs in ${logDir})`);
      process.exit(ok ? 0 : 1);
    },
    (error: unknown) => {
      log(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exit(1);
    },
  );
}
