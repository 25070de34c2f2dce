/**
 * The scope catalog (docs/architecture.md section 5): `provision.<resource>.<verb>` plus the integrator
 * scope. `*` in a pattern matches one segment, or everything after it when it ends the pattern.
 */
export const scopeResources = [
  "product",
  "feature-catalog",
  "tag",
  "suite",
  "plan-set",
  "add-on",
  "rating-campaign",
  "monitored-asset",
  "catalog",
  "entitlement-adm",
  "session",
  "activation-code",
  "device",
  "balance",
  "usage",
  "offline",
  "customer",
  "webhook",
  "report",
  "audit",
] as const;
export type ScopeResource = (typeof scopeResources)[number];

export const scopeVerbs = ["read", "create", "update", "delete"] as const;
export type ScopeVerb = (typeof scopeVerbs)[number];

export const INTEGRATOR_SCOPE = "webhooks.integrator";

export const scopeCatalog: readonly string[] = [
  ...scopeResources.flatMap((resource) => scopeVerbs.map((verb) => `provision.${resource}.${verb}`)),
  INTEGRATOR_SCOPE,
];

export const scopeDescriptions: Record<ScopeResource, string> = {
  product: "Products, their features, properties and metrics",
  "feature-catalog": "The feature catalog",
  tag: "The tag registry",
  suite: "Suites and their members",
  "plan-set": "Usage plan sets and their revisions",
  "add-on": "Add-ons",
  "rating-campaign": "Rating campaigns",
  "monitored-asset": "Monitored assets and asset balances",
  catalog: "Catalog export and import",
  "entitlement-adm": "Offers, entitlements, billing records and add-on grants",
  session: "License sessions (activations)",
  "activation-code": "Activation codes",
  device: "Device resets and blocks",
  balance: "Credit balance deposits, withdrawals and sets",
  usage: "Usage uploads for an entitlement and reads of its meters",
  offline: "Offline activation",
  customer: "Customer users and organizations",
  webhook: "Webhook subscriptions, deliveries and dead letters (tenant admin)",
  report: "Reports: revenue, seat utilisation and activations (read only)",
  audit: "The audit trail (read only)",
};

export function verbForMethod(method: string): ScopeVerb {
  switch (method.toUpperCase()) {
    case "GET":
    case "HEAD":
      return "read";
    case "POST":
      return "create";
    case "PUT":
    case "PATCH":
      return "update";
    case "DELETE":
      return "delete";
    default:
      throw new Error(`No scope verb for method ${method}`);
  }
}

/** Whether `pattern` (possibly with wildcards) covers the concrete `scope`. */
export function scopeMatches(pattern: string, scope: string): boolean {
  const p = pattern.split(".");
  const s = scope.split(".");
  for (let i = 0; i < p.length; i++) {
    if (p[i] === "*" && i === p.length - 1) return s.length >= p.length;
    if (i >= s.length) return false;
    if (p[i] !== "*" && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

/** The concrete catalog scopes a pattern stands for (empty when it names nothing known). */
export function expandScope(pattern: string): string[] {
  return scopeCatalog.filter((scope) => scopeMatches(pattern, scope));
}

export function isValidScopePattern(pattern: string): boolean {
  return /^[a-z*][a-z0-9*-]*(\.[a-z*][a-z0-9*-]*)*$/.test(pattern) && expandScope(pattern).length > 0;
}

/**
 * docs/api.md: a token carries only the scopes the request asked for, capped to those registered on
 * the client. Both sides may hold wildcards; the result is the list of concrete scopes.
 */
export function grantScopes(requested: string[], registered: string[]): string[] {
  const asked = new Set(requested.flatMap(expandScope));
  return scopeCatalog.filter(
    (scope) => asked.has(scope) && registered.some((pattern) => scopeMatches(pattern, scope)),
  );
}

export function hasScope(granted: readonly string[], required: string): boolean {
  return granted.some((scope) => scopeMatches(scope, required));
}
