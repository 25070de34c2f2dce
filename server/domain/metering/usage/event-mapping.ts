import { isQuantity, micros, MAX_MICROS, type Micros } from "../quantity.ts";

export type MappedUsage = { metricName: string; amount: Micros } | { unmatched: string };

/**
 * How a usage transaction record becomes a metric and an amount (docs/decisions.md "Metering",
 * "Usage records → meters"). `eventData` is the event object as JSON text and `eventName` its type:
 * 1. `eventData` must be a JSON object; anything else is unmatched.
 * 2. The metric is `eventData.metricName` when it is a string, else `eventName` itself. Either
 *    way it must name a metric the license tracks, by exact case-sensitive match (docs/api.md: the
 *    meter is resolved by metricName, never by feature code).
 * 3. The amount is `eventData.amount` (a JSON number or a decimal string, ≥ 0, at most 10^18,
 *    rounded to 6 decimals); absent, the record counts 1 (one occurrence of the event). For a
 *    Gauge metric it is the level read, for Maximum a reading.
 * A record that fails a rule is kept in the ledger as unmatched, with the reason; it is never an
 * error for the batch.
 */
export function mapUsageEvent(
  eventName: string,
  eventData: string,
  isTracked: (metricName: string) => boolean,
): MappedUsage {
  let data: unknown;
  try {
    data = JSON.parse(eventData);
  } catch {
    return { unmatched: "eventData is not JSON" };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data))
    return { unmatched: "eventData is not a JSON object" };
  const fields = data as Record<string, unknown>;
  const metricName = typeof fields.metricName === "string" ? fields.metricName : eventName;
  if (!isTracked(metricName)) return { unmatched: `no tracked metric "${metricName}"` };
  if (fields.amount === undefined) return { metricName, amount: micros(1) };
  if (!isQuantity(fields.amount)) return { unmatched: "amount is not a number" };
  const amount = micros(fields.amount);
  if (amount < 0n || amount > MAX_MICROS) return { unmatched: "amount is out of range" };
  return { metricName, amount };
}
