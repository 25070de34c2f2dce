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
