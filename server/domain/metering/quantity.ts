/**
 * Quantities and credits as integers of micro-units (10^-6, the scale of every metering column):
 * exact arithmetic without binary floats (docs/architecture.md section 13). PostgreSQL `numeric` values come
 * in and go out as decimal strings; JSON numbers are read through their shortest decimal form.
 */
export type Micros = bigint;

export const MICRO = 1_000_000n;
/** The columns hold DECIMAL(24,6): at most 18 integer digits. */
export const MAX_MICROS = 10n ** 24n - 1n;

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * A decimal string or a finite number as micro-units, rounded half away from zero past the sixth
 * decimal. Throws on anything else (callers validate input before it gets here).
 */
export function micros(value: string | number | bigint): Micros {
  if (typeof value === "bigint") return value * MICRO;
  if (typeof value === "number" && !Number.isFinite(value))
    throw new Error(`Not a finite quantity: ${value}`);
  const text = typeof value === "number" ? String(value) : value.trim();
  const match = DECIMAL.exec(text);
  if (!match || (match[2] === "" && (match[3] ?? "") === ""))
    throw new Error(`Not a decimal quantity: ${text}`);
  const [, sign, whole, fraction = "", exponent = "0"] = match;
  let digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, "");
  // value = digits × 10^(exp - fraction.length); micro-units shift it by 6.
  let shift = Number(exponent) - fraction.length + 6;
  let result: bigint;
  if (shift >= 0) {
    result = BigInt(digits || "0") * 10n ** BigInt(shift);
  } else {
    shift = -shift;
    if (digits.length <= shift) digits = digits.padStart(shift + 1, "0");
    const kept = BigInt(digits.slice(0, digits.length - shift));
    const roundUp = digits[digits.length - shift] >= "5";
    result = kept + (roundUp ? 1n : 0n);
  }
  return sign === "-" ? -result : result;
}

/** Whether a string or number is a decimal quantity `micros` accepts. */
export function isQuantity(value: unknown): value is string | number {
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "string" || value.trim() === "") return false;
  const match = DECIMAL.exec(value.trim());
  return Boolean(match && !(match[2] === "" && (match[3] ?? "") === ""));
}

/** Fixed six decimals, as PostgreSQL parameters are passed (`"12.500000"`). */
export function toDecimalString(value: Micros): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / MICRO;
  const fraction = (abs % MICRO).toString().padStart(6, "0");
  return `${negative ? "-" : ""}${whole}.${fraction}`;
}

/** The JSON number of an answer (docs/api.md fields are numbers); exact for every value below 2^53 micro-units. */
export const toNumber = (value: Micros): number => Number(toDecimalString(value));

/** a × b, both in micro-units, rounded half away from zero. */
export function mulMicros(a: Micros, b: Micros): Micros {
  return divRound(a * b, MICRO);
}

/** base × percentage / 100 (percentage in micro-units of a percent), rounded half away from zero. */
export function percentOf(base: Micros, percentage: Micros): Micros {
  return divRound(base * percentage, 100n * MICRO);
}

function divRound(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (n + d / 2n) / d;
  return negative ? -q : q;
}

export const minMicros = (a: Micros, b: Micros): Micros => (a < b ? a : b);
export const maxMicros = (a: Micros, b: Micros): Micros => (a > b ? a : b);
export const ZERO: Micros = 0n;
