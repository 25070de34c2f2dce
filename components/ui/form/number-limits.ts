import { formatQuantity } from "../format";
import type { Limits } from "./schema-limits";

/** What a number field counts, for its hint: a noun ("seats"), a currency code, a billing interval. */
export type NumberUnits = {
  /** After the number: "Between 1 and 1,000,000 seats." */
  unit?: string;
  /** Before each bound, with cents: "USD 0.00 or more." */
  currency?: string;
  /** The interval the amount is per: "0 or more per month." */
  per?: string;
};

/** An amount of money as a bound: "USD 0.00", "EUR 1,000.50"; digits alone without a currency. */
function bound(value: number, currency: string | undefined): string {
  const number = formatQuantity(value);
  if (!currency) return number;
  const [int, frac = ""] = number.split(".");
  return `${currency.toUpperCase()} ${int}.${frac.padEnd(2, "0")}`;
}

/**
 * A number field's limits as one sentence, said before anyone types: "Between 1 and 1,000,000
 * seats.", "0 or more per month.", "USD 0.00 or more per month.", "Whole number, more than 0
 * days."; null when the field has no limits.
 */
export function numberLimitText(limits: Limits, units: NumberUnits = {}): string | null {
  const { min, max } = limits;
  const at = (value: number) => bound(value, units.currency);
  const tail = [units.unit, units.per ? `per ${units.per}` : undefined].filter(Boolean).join(" ");
  let range: string | null = null;
  if (min !== undefined && max !== undefined && !limits.minExclusive && !limits.maxExclusive)
    range = `between ${at(min)} and ${at(max)}`;
  else if (min !== undefined) range = limits.minExclusive ? `more than ${at(min)}` : `${at(min)} or more`;
  else if (max !== undefined) range = limits.maxExclusive ? `less than ${at(max)}` : `at most ${at(max)}`;
  if (range && tail) range = `${range} ${tail}`;
  if (limits.integer) return range ? `Whole number, ${range}.` : "Whole number.";
  return range ? `${range[0].toUpperCase()}${range.slice(1)}.` : null;
}
