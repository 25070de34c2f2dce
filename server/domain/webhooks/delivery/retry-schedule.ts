import { retryScale } from "./settings.ts";

/**
 * docs/architecture.md section 7: attempts go out immediately, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h
 * and 10 h; a delivery whose eighth attempt fails is dead-lettered (requeueable).
 * RETRY_DELAYS_MS[n] is the wait before attempt n + 1.
 */
export const RETRY_DELAYS_MS = [
  0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length;

/** The wait after `attemptsInCycle` failed attempts, or null when the delivery is dead. */
export function retryDelayMs(attemptsInCycle: number): number | null {
  if (attemptsInCycle >= MAX_ATTEMPTS) return null;
  return Math.round(RETRY_DELAYS_MS[Math.max(attemptsInCycle, 0)] * retryScale());
}
