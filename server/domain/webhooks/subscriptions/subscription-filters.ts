import { AppError } from "../../../core/errors.ts";
import { quotaUsageLevels } from "../../catalog/monitored-assets/usage-tier.schemas.ts";
import type { Envelope } from "../events/envelope.ts";
import { coveredEventTypes } from "./event-type-patterns.ts";
import type { TSubscriptionFilters, TSubscriptionFiltersInput } from "./subscription.schemas.ts";

const neverMatches = (path: string, detail: string) =>
  new AppError("subscription.invalid_filter", detail, {
    issues: [{ path: `body.filters.${path}`, message: detail }],
  });

/**
 * docs/api.md Subscriptions rules 3-5. A filter that could never match is refused (4034): an empty
 * field name (or an empty segment of a dot path), a null value, a field none of the subscribed
 * types carries as a string, number or boolean (under `*`, any type's fields count), and likewise
 * an entity kind no subscribed type has or a severity filter when no subscribed type carries a
 * severity. Returns the filters normalised (empty parts dropped; null when nothing is left).
 */
export function validateFilters(
  filters: TSubscriptionFiltersInput | null | undefined,
  patterns: readonly string[],
): TSubscriptionFilters | null {
  if (!filters) return null;
  const types = coveredEventTypes(patterns);
  const out: TSubscriptionFilters = {};

  if (filters.entityKinds?.length) {
    const kinds = new Set(types.map((t) => t.entityKind));
    for (const kind of filters.entityKinds) {
      if (!kind) throw neverMatches("entityKinds", "An entity kind cannot be empty.");
      if (!kinds.has(kind))
        throw neverMatches(
          "entityKinds",
          `No subscribed event type is about entity kind "${kind}" (subscribed types cover: ${[...kinds].join(", ")}).`,
        );
    }
    out.entityKinds = [...new Set(filters.entityKinds)];
  }

  if (filters.severities?.length) {
    if (!types.some((t) => t.hasSeverity))
      throw neverMatches(
        "severities",
        "No subscribed event type carries a severity (only MeteredUsage.OverageStatusChanged does).",
      );
    for (const severity of filters.severities) {
      if (!severity) throw neverMatches("severities", "A severity cannot be empty.");
      if (!(quotaUsageLevels as readonly string[]).includes(severity))
        throw neverMatches(
          "severities",
          `"${severity}" is not an overage severity (${quotaUsageLevels.join(", ")}).`,
        );
    }
    out.severities = [...new Set(filters.severities)];
  }

  const equality = filters.attributeEquality ?? {};
  if (Object.keys(equality).length) {
    const carried = new Set(types.flatMap((t) => t.fieldPaths));
    const kept: Record<string, string> = {};
    for (const [path, value] of Object.entries(equality)) {
      if (path === "" || path.split(".").some((segment) => segment === ""))
        throw neverMatches("attributeEquality", `"${path}" has an empty field name.`);
      if (value === null)
        throw neverMatches(
          `attributeEquality.${path}`,
          `The value for "${path}" is null; null never matches.`,
        );
      if (!carried.has(path)) {
        throw neverMatches(
          `attributeEquality.${path}`,
          `No subscribed event type carries "${path}" as a string, number or boolean (names are case-sensitive; objects and arrays never match).`,
        );
      }
      kept[path] = value;
    }
    out.attributeEquality = kept;
  }

  return Object.keys(out).length ? out : null;
}

/**
 * docs/api.md "Subscriptions": the text a data field matches as. Strings match themselves; numbers as the
 * payload writes them (the payload is JSON.stringify output, so String(n)); booleans as `true` or
 * `false`. Objects, arrays, null and missing fields have no text: they never match.
 */
export function fieldText(data: unknown, path: string): string | undefined {
  let current: unknown = data;
  for (const segment of path.split(".")) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  if (typeof current === "string") return current;
  if (typeof current === "number") return Number.isFinite(current) ? JSON.stringify(current) : undefined;
  if (typeof current === "boolean") return current ? "true" : "false";
  return undefined;
}

/** An event is delivered only if it passes every filter set (docs/api.md "Subscriptions"). */
export function filtersMatch(
  filters: TSubscriptionFilters | null,
  envelope: Pick<Envelope, "entitykind" | "data">,
): boolean {
  if (!filters) return true;
  if (filters.entityKinds?.length && !filters.entityKinds.includes(envelope.entitykind)) return false;
  if (filters.severities?.length) {
    const severity = fieldText(envelope.data, "severity");
    if (severity === undefined || !filters.severities.includes(severity)) return false;
  }
  for (const [path, expected] of Object.entries(filters.attributeEquality ?? {})) {
    if (fieldText(envelope.data, path) !== expected) return false;
  }
  return true;
}
