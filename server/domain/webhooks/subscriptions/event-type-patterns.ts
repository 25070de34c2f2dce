import { AppError } from "../../../core/errors.ts";
import {
  findEventType,
  REGISTRATION_CHALLENGE,
  subscribableEventTypes,
  type EventTypeDefinition,
} from "../events/event-types.ts";

export const ALL_EVENT_TYPES = "*";

const invalid = (detail: string) =>
  new AppError("subscription.invalid_event_type", detail, {
    issues: [{ path: "body.eventTypePatterns", message: detail }],
  });

/**
 * docs/api.md Subscriptions rule 2: exact event types or `*`; a family wildcard (`Entitlement.*`), an
 * unknown type or the registration challenge type is refused (4035). Returns the patterns
 * deduplicated, in the order given (`*` alone when present, since it covers everything).
 */
export function validateEventTypePatterns(patterns: readonly string[]): string[] {
  if (patterns.length === 0) throw invalid("Give at least one event type, or * for all.");
  const unique = [...new Set(patterns)];
  for (const pattern of unique) {
    if (pattern === ALL_EVENT_TYPES) continue;
    if (pattern === REGISTRATION_CHALLENGE)
      throw invalid(`${REGISTRATION_CHALLENGE} is sent by verification only and cannot be subscribed to.`);
    if (pattern.includes("*"))
      throw invalid(`"${pattern}": there are no family wildcards; list exact event types or use * for all.`);
    if (!findEventType(pattern))
      throw invalid(
        `"${pattern}" is not an event type (see GET /api/v1/webhooks/schemas; names are case-sensitive).`,
      );
  }
  return unique.includes(ALL_EVENT_TYPES) ? [ALL_EVENT_TYPES] : unique;
}

/** The event types a list of (validated) patterns covers; `*` covers every subscribable type. */
export function coveredEventTypes(patterns: readonly string[]): EventTypeDefinition[] {
  if (patterns.includes(ALL_EVENT_TYPES)) return [...subscribableEventTypes];
  return patterns.map((p) => findEventType(p)).filter((t): t is EventTypeDefinition => !!t);
}

/** `*` matches every type including those added later, but never the registration challenge. */
export function patternsMatch(patterns: readonly string[], type: string): boolean {
  if (type === REGISTRATION_CHALLENGE) return false;
  return patterns.includes(ALL_EVENT_TYPES) || patterns.includes(type);
}
