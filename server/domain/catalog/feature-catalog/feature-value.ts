/**
 * How a feature's value string is read, decided by the catalog entry's featureType (docs/api.md
 * "Feature catalog entry"). Shared by product features, plan-set feature values and add-ons.
 */
export const featureTypes = ["Boolean", "Numeric", "Text", "Enumeration", "Metered", "JsonField"] as const;
export type TFeatureType = (typeof featureTypes)[number];

/** A plain decimal number: no hex, no `Infinity`, no blanks (Number("") would be 0). */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
export const MAX_FEATURE_VALUE_LENGTH = 10_000;

function asNumber(value: string): number | null {
  const trimmed = value.trim();
  if (!DECIMAL.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : null;
}

/**
 * Checks one value string against its catalog entry; returns an error message, or null when the
 * value is acceptable. A null value means "no value set" and is always acceptable, except that a
 * Metered entry without a metricName can never be metered.
 *
 * - Boolean: exactly `true` or `false`.
 * - Numeric: a finite decimal number.
 * - Text: any string.
 * - Enumeration: one of the entry's enumOptions values (case-sensitive).
 * - Metered: a quota, a finite number >= 0; the entry must name the metric it is reported under.
 * - JsonField: text that parses as JSON.
 */
export function validateFeatureValue(
  entry: { featureType: string; enumOptions: { value: string }[] | null; metricName?: string | null },
  value: string | null,
): string | null {
  if (entry.featureType === "Metered" && !entry.metricName) {
    return "A Metered feature needs a metricName on its catalog entry.";
  }
  if (value === null) return null;
  if (value.length > MAX_FEATURE_VALUE_LENGTH)
    return `A feature value is at most ${MAX_FEATURE_VALUE_LENGTH} characters.`;
  switch (entry.featureType) {
    case "Boolean":
      return value === "true" || value === "false"
        ? null
        : `A Boolean feature's value is "true" or "false", not "${value}".`;
    case "Numeric":
      return asNumber(value) === null
        ? `A Numeric feature's value is a finite number, not "${value}".`
        : null;
    case "Text":
      return null;
    case "Enumeration": {
      const options = entry.enumOptions ?? [];
      if (options.some((o) => o.value === value)) return null;
      const allowed = options.map((o) => o.value).join(", ") || "none defined";
      return `"${value}" is not one of the feature's enumOptions (${allowed}).`;
    }
    case "Metered": {
      const n = asNumber(value);
      return n === null || n < 0
        ? `A Metered feature's value is a quota: a number of at least 0, not "${value}".`
        : null;
    }
    case "JsonField":
      try {
        JSON.parse(value);
        return null;
      } catch {
        return "A JsonField feature's value must be valid JSON.";
      }
    default:
      return `Unknown featureType "${entry.featureType}".`;
  }
}
