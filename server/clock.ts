import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The one source of the current time. Tests move it with `setClock` instead of sleeping, or, over
 * HTTP, with the request clock (`runAtClock`; see testClockOf in server/http/test-clock.ts).
 */
let offsetMs = 0;
let fixed: Date | null = null;
const requestClock = new AsyncLocalStorage<Date>();

export function now(): Date {
  const at = requestClock.getStore();
  if (at) return new Date(at);
  return fixed ? new Date(fixed) : new Date(Date.now() + offsetMs);
}

export function setClock(options: { fixed?: Date | null; offsetMs?: number }): void {
  if (options.fixed !== undefined) fixed = options.fixed;
  if (options.offsetMs !== undefined) offsetMs = options.offsetMs;
}

/** Runs `fn` (and everything it awaits) with `now()` answering `at`. */
export function runAtClock<T>(at: Date, fn: () => T): T {
  return requestClock.run(at, fn);
}
