import { addMonthsClamped } from "../../../core/calendar.ts";
import type { TRenewalExtension } from "./renewal.schemas.ts";

const DAY_MS = 86_400_000;

/**
 * The new end of one entitlement for a bulk extension, from its current end. Pure, so the bulk
 * dialog previews exactly what the server will set.
 */
export function extendedEnd(extension: TRenewalExtension, currentEnd: Date): Date {
  if (extension.kind === "until") {
    // The chosen day at the current end's time of day, as the single Renew dialog sends it.
    const timeOfDay = currentEnd.getTime() % DAY_MS;
    return new Date(Date.parse(`${extension.date}T00:00:00.000Z`) + timeOfDay);
  }
  if (extension.unit === "days") return new Date(currentEnd.getTime() + extension.count * DAY_MS);
  return addMonthsClamped(currentEnd, extension.unit === "years" ? extension.count * 12 : extension.count);
}
