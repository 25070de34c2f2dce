/**
 * Numbers and dates for people: the one formatter used by pages, charts and CSV exports.
 *
 * Quantities and money arrive as numbers or as the decimal strings numeric columns read as
 * ("1200.000000"); strings are formatted digit by digit so no binary float rounds them.
 * Pages get thousands separators and units; CSV cells get the plain decimal a spreadsheet parses
 * (`csvDecimal`) and ISO 8601 dates. The UI reaches this module through components/ui/format.ts.
 */

const LOCALE = "en-GB";
const DASH = "—";

type Decimal = number | string | bigint;

/** A decimal as sign, integer digits and fraction digits, trailing fraction zeros dropped; null if not a number. */
function decimalParts(value: Decimal): { negative: boolean; int: string; frac: string } | null {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    // Up to 6 decimals (the scale of every numeric column); toFixed avoids exponent notation.
    text = Math.abs(value) >= 1e21 ? BigInt(Math.round(value)).toString() : value.toFixed(6);
  } else text = String(value).trim();
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === "" && !match[3])) return null;
  const int = match[2].replace(/^0+(?=\d)/, "") || "0";
  const frac = (match[3] ?? "").replace(/0+$/, "");
  const negative = match[1] === "-" && (int !== "0" || frac !== "");
  return { negative, int, frac };
}

const groupThousands = (int: string) => int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/**
 * A quantity for a page: thousands separators, no trailing zeros, then the unit when given.
 * `1200.000000` → "1,200"; `(0.5, "GB")` → "0.5 GB"; null → "—".
 */
export function formatQuantity(
  value: Decimal | null | undefined,
  unit?: string | null,
  options: { maxDecimals?: number } = {},
): string {
  if (value === null || value === undefined || value === "") return DASH;
  const parts = decimalParts(value);
  if (!parts) return String(value);
  let frac = parts.frac;
  if (options.maxDecimals !== undefined && frac.length > options.maxDecimals) {
    const rounded = Number(`${parts.int}.${frac}`).toFixed(options.maxDecimals);
    const again = decimalParts(rounded)!;
    parts.int = again.int;
    frac = again.frac;
  }
  const number = `${parts.negative ? "-" : ""}${groupThousands(parts.int)}${frac ? `.${frac}` : ""}`;
  return unit ? `${number} ${unit}` : number;
}

/** A whole count: "1,000,000,000,459". */
export const formatCount = (value: Decimal | null | undefined) => formatQuantity(value);

/**
 * A count with its noun, singular for exactly one: `(1, "seat")` → "1 seat", `(0, "seat")` →
 * "0 seats", `(1200, "code")` → "1,200 codes"; irregular nouns name their plural
 * (`(3, "entry", "entries")` → "3 entries").
 */
export function formatCountOf(count: Decimal, singular: string, plural = `${singular}s`): string {
  const number = formatQuantity(count);
  return `${number} ${number === "1" ? singular : plural}`;
}

/** A decimal as a spreadsheet reads it: no separators, no trailing zeros ("1200", "0.5", "-3"); empty when absent. */
export function csvDecimal(value: Decimal | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  const parts = decimalParts(value);
  if (!parts) return String(value);
  return `${parts.negative ? "-" : ""}${parts.int}${parts.frac ? `.${parts.frac}` : ""}`;
}

/**
 * Money with its currency code: "EUR 1,234.50"; 0 is "Free"; cents are kept, further decimals
 * only when present ("USD 0.0025"). `per` names the billing period ("EUR 49 /month").
 */
export function formatMoney(
  value: Decimal | null | undefined,
  currency: string | null | undefined,
  options: { per?: string; zero?: string } = {},
): string {
  if (value === null || value === undefined || value === "") return DASH;
  const parts = decimalParts(value);
  if (!parts) return String(value);
  if (parts.int === "0" && parts.frac === "") return options.zero ?? "Free";
  const frac = parts.frac.length === 0 ? "" : parts.frac.padEnd(2, "0");
  const amount = `${parts.negative ? "-" : ""}${groupThousands(parts.int)}${frac ? `.${frac}` : ""}`;
  const text = currency ? `${currency.toUpperCase()} ${amount}` : amount;
  return options.per ? `${text} /${options.per}` : text;
}

/** A fraction (0.125) as a percentage ("12.5%"), at most `decimals` places, no trailing zeros. */
export function formatPercent(fraction: number | null | undefined, decimals = 1): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return DASH;
  return `${formatQuantity(Number((fraction * 100).toFixed(decimals)))}%`;
}

/** A large number for a chart axis: 950, 12k, 1.5M, 3B. */
export function formatCompact(value: number): string {
  const abs = Math.abs(value);
  const scaled = (divisor: number, suffix: string) =>
    `${formatQuantity(Number((value / divisor).toFixed(abs / divisor >= 10 ? 0 : 1)))}${suffix}`;
  if (abs >= 1e12) return scaled(1e12, "T");
  if (abs >= 1e9) return scaled(1e9, "B");
  if (abs >= 1e6) return scaled(1e6, "M");
  if (abs >= 1e4) return scaled(1e3, "k");
  return formatQuantity(Number(value.toFixed(2)));
}

const dateTime = new Intl.DateTimeFormat(LOCALE, {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});
const dateOnly = new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeZone: "UTC" });
const monthOnly = new Intl.DateTimeFormat(LOCALE, { month: "short", year: "numeric", timeZone: "UTC" });

const asDate = (value: string | Date) => (value instanceof Date ? value : new Date(value));

/** A timestamp in UTC: "27 Nov 2026, 10:05"; "—" when absent. */
export function formatDateTime(value: string | Date | null | undefined): string {
  return value ? dateTime.format(asDate(value)) : DASH;
}

/** A day: "27 Nov 2026"; "—" when absent. */
export function formatDate(value: string | Date | null | undefined): string {
  return value ? dateOnly.format(asDate(value)) : DASH;
}

/** A month: "Nov 2026". */
export function formatMonth(value: string | Date): string {
  return monthOnly.format(asDate(value));
}

const relative = new Intl.RelativeTimeFormat(LOCALE, { numeric: "auto" });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["week", 7 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

/** How long ago or ahead: "3 days ago", "in 2 hours", "now". */
export function formatRelative(value: string | Date | null | undefined, now: Date = new Date()): string {
  if (!value) return DASH;
  const diff = asDate(value).getTime() - now.getTime();
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return relative.format(Math.trunc(diff / ms), unit);
  }
  return "now";
}

/** A date for CSV cells: ISO 8601 in UTC; empty when absent. */
export function csvDate(value: string | Date | null | undefined): string {
  return value ? asDate(value).toISOString() : "";
}
