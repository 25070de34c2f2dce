import { CronExpressionParser } from "cron-parser";

/**
 * docs/api.md balanceUsage.autoBalanceCronSchedule: five fields (minute, hour, day of month, month,
 * day of week) built from numbers and `*`, `,`, `-`, `/` only. cron-parser checks ranges and
 * steps; the field count and the character set are checked first because cron-parser also
 * accepts a sixth (seconds) field, names, `?`, `L`, `#`, `H` and `@daily`-style macros.
 * Returns an error message, or null for a valid schedule.
 */
export function cronScheduleProblem(schedule: string): string | null {
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5) {
    return `A schedule has five fields (minute hour day-of-month month day-of-week); "${schedule}" has ${fields.length}.`;
  }
  const bad = fields.find((f) => !/^[0-9*,\-/]+$/.test(f));
  if (bad !== undefined) return `"${bad}": schedule fields use numbers and * , - / only.`;
  try {
    CronExpressionParser.parse(fields.join(" "), { tz: "UTC" });
    return null;
  } catch (error) {
    return `Not a valid cron schedule: ${(error as Error).message}`;
  }
}

/** The next run after `from` (UTC), for display and for the auto-balance job. */
export function nextCronRun(schedule: string, from: Date): Date {
  return CronExpressionParser.parse(schedule.trim(), { tz: "UTC", currentDate: from }).next().toDate();
}
