/**
 * The one source of the current time. Tests move it with `setClock` instead of sleeping.
 */
let offsetMs = 0;
let fixed: Date | null = null;

export function now(): Date {
  return fixed ? new Date(fixed) : new Date(Date.now() + offsetMs);
}

export function setClock(options: { fixed?: Date | null; offsetMs?: number }): void {
  if (options.fixed !== undefined) fixed = options.fixed;
  if (options.offsetMs !== undefined) offsetMs = options.offsetMs;
}
