import { addMonthsClamped } from "../../../core/calendar.ts";

export { addMonthsClamped };

/**
 * The consumption period a moment falls in (docs/architecture.md section 13; docs/decisions.md "Metering"):
 * computed in UTC from the meter's `consumptionPeriod` and `periodAnchor`.
 * - blank or unrecognised `consumptionPeriod`: one lifetime period (docs/api.md: the quota never resets);
 * - `Calendar` (default; also any unrecognised anchor): UTC calendar boundaries, weeks start on
 *   Monday (ISO 8601);
 * - `EntitlementStart`: periods of the same length counted from the entitlement's start (its
 *   notValidBeforeDateTime, else its creation). Months and years step by calendar months from
 *   the anchor, the day clamped to the month's length (an anchor on the 31st gives Feb 28/29,
 *   then Mar 31) and the anchor's time of day kept.
 * The key names the unit and the start, so a period of one length never continues another's.
 */
export const periodUnits = ["minute", "hour", "day", "week", "month", "year"] as const;
export type PeriodUnit = (typeof periodUnits)[number];

export type Period = {
  /** `lifetime`, or `<unit>:<ISO start>`. */
  key: string;
  unit: PeriodUnit | null;
  start: Date | null;
  /** Exclusive end: the start of the next period. */
  end: Date | null;
};

export const LIFETIME: Period = { key: "lifetime", unit: null, start: null, end: null };

const FIXED_MS: Partial<Record<PeriodUnit, number>> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
};

const isUnit = (value: string): value is PeriodUnit => (periodUnits as readonly string[]).includes(value);

function period(unit: PeriodUnit, start: Date, end: Date): Period {
  return { key: `${unit}:${start.toISOString()}`, unit, start, end };
}

/** UTC calendar boundaries. */
function calendarStart(unit: PeriodUnit, at: Date): Date {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const d = at.getUTCDate();
  switch (unit) {
    case "minute":
      return new Date(Math.floor(at.getTime() / 60_000) * 60_000);
    case "hour":
      return new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
    case "day":
      return new Date(Date.UTC(y, m, d));
    case "week": {
      const mondayOffset = (at.getUTCDay() + 6) % 7;
      return new Date(Date.UTC(y, m, d - mondayOffset));
    }
    case "month":
      return new Date(Date.UTC(y, m, 1));
    case "year":
      return new Date(Date.UTC(y, 0, 1));
  }
}

function calendarNext(unit: PeriodUnit, start: Date): Date {
  const y = start.getUTCFullYear();
  const m = start.getUTCMonth();
  if (unit === "month") return new Date(Date.UTC(y, m + 1, 1));
  if (unit === "year") return new Date(Date.UTC(y + 1, 0, 1));
  return new Date(start.getTime() + FIXED_MS[unit]!);
}

function anchoredPeriod(unit: PeriodUnit, anchor: Date, at: Date): Period {
  const fixed = FIXED_MS[unit];
  if (fixed) {
    const k = Math.floor((at.getTime() - anchor.getTime()) / fixed);
    const start = new Date(anchor.getTime() + k * fixed);
    return period(unit, start, new Date(start.getTime() + fixed));
  }
  const step = unit === "year" ? 12 : 1;
  const monthsApart =
    (at.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (at.getUTCMonth() - anchor.getUTCMonth());
  let k = Math.floor(monthsApart / step);
  // The estimate is off by at most one step either way (days and times of day within the month).
  while (addMonthsClamped(anchor, k * step) > at) k -= 1;
  while (addMonthsClamped(anchor, (k + 1) * step) <= at) k += 1;
  return period(unit, addMonthsClamped(anchor, k * step), addMonthsClamped(anchor, (k + 1) * step));
}

export function periodOf(
  meter: { consumptionPeriod: string; periodAnchor: string },
  anchorAt: Date,
  at: Date,
): Period {
  const unit = meter.consumptionPeriod;
  if (!isUnit(unit)) return LIFETIME;
  if (meter.periodAnchor === "EntitlementStart") return anchoredPeriod(unit, anchorAt, at);
  const start = calendarStart(unit, at);
  return period(unit, start, calendarNext(unit, start));
}
