import { CronExpressionParser } from "cron-parser";

const parse = (schedule: string, currentDate: Date) =>
  CronExpressionParser.parse(schedule.trim(), { tz: "UTC", currentDate });

/** The latest scheduled instant at or before `at` (UTC); null when the schedule has none. */
export function latestScheduledInstant(schedule: string, at: Date): Date | null {
  try {
    return parse(schedule, new Date(at.getTime() + 1))
      .prev()
      .toDate();
  } catch {
    return null;
  }
}

/** The next `count` scheduled instants after `from` (the back office's schedule preview). */
export function nextScheduledInstants(schedule: string, from: Date, count = 5): Date[] {
  const expression = parse(schedule, from);
  return Array.from({ length: count }, () => expression.next().toDate());
}
