import type { TSubscriptionResponse } from "@/server/domain/webhooks/subscriptions/subscription.schemas";

/** What the subscription dialog's inputs hold: filters as one line per entry, event types as picked. */
export type SubscriptionValues = {
  targetKind: "Http" | "Capture";
  displayName: string;
  url: string;
  /** Every event type ("*"), including types added later. */
  all: boolean;
  types: string[];
  entityKinds: string;
  severities: string;
  /** `path=value` lines. */
  equality: string;
  scopes: string[];
};

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

/**
 * A checkbox group's value as a list: react-hook-form gives a group of one box its value alone
 * (or false when unchecked), a group of several the list of checked values.
 */
const checked = (value: unknown): string[] =>
  Array.isArray(value) ? (value as string[]) : typeof value === "string" ? [value] : [];

/** `path=value` lines as the attributeEquality map; a line without "=" asks for an empty value. */
export function parseEquality(text: string): Record<string, string> {
  return Object.fromEntries(
    lines(text).map((line) => {
      const at = line.indexOf("=");
      return at < 0 ? [line, ""] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
    }),
  );
}

export function subscriptionValues(subscription?: TSubscriptionResponse): SubscriptionValues {
  return {
    targetKind: (subscription?.targetKind as "Http" | "Capture" | undefined) ?? "Http",
    displayName: subscription?.displayName ?? "",
    url: subscription?.url ?? "",
    all: subscription ? subscription.eventTypePatterns.includes("*") : true,
    types: subscription?.eventTypePatterns.filter((p) => p !== "*") ?? [],
    entityKinds: subscription?.filters?.entityKinds?.join("\n") ?? "",
    severities: subscription?.filters?.severities?.join("\n") ?? "",
    equality: Object.entries(subscription?.filters?.attributeEquality ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join("\n"),
    scopes: subscription?.callbackScopes ?? [],
  };
}

/**
 * The create request, or with `subscription` the merge-PATCH against it: a Capture sends no URL or
 * callback scopes, and no filter line at all is "no filters" (cleared on edit).
 */
export function subscriptionPayload(v: SubscriptionValues, subscription?: TSubscriptionResponse) {
  const eventTypePatterns = v.all ? ["*"] : checked(v.types);
  const http = v.targetKind === "Http" ? { url: v.url, callbackScopes: checked(v.scopes) } : {};
  const set = {
    ...(lines(v.entityKinds).length ? { entityKinds: lines(v.entityKinds) } : {}),
    ...(lines(v.severities).length ? { severities: lines(v.severities) } : {}),
    ...(lines(v.equality).length ? { attributeEquality: parseEquality(v.equality) } : {}),
  };
  const filters = Object.keys(set).length ? set : null;
  if (!subscription)
    return { targetKind: v.targetKind, displayName: v.displayName, eventTypePatterns, filters, ...http };
  return {
    displayName: v.displayName,
    eventTypePatterns,
    ...http,
    ...(filters ? { filters } : { clearFilters: true }),
    revisionNumber: subscription.revisionNumber,
  };
}
