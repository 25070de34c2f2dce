import { INTEGRATOR_SCOPE, scopeDescriptions, scopeResources, scopeVerbs } from "./scopes.ts";

/** The public description of every scope a client can be granted (GET /api/v1/scopes). */
export function scopeCatalogDocument() {
  return {
    format: "provision.<resource>.<verb>",
    verbs: {
      read: "GET",
      create: "POST",
      update: "PUT, PATCH and POST .../{id}/<action> toggles",
      delete: "DELETE",
    },
    wildcards: "`*` matches one segment, or everything after it at the end: provision.product.*, provision.*",
    resources: scopeResources.map((resource) => ({
      resource,
      description: scopeDescriptions[resource],
      scopes: scopeVerbs.map((verb) => `provision.${resource}.${verb}`),
    })),
    scopes: [
      ...scopeResources.flatMap((resource) =>
        scopeVerbs.map((verb) => ({
          scope: `provision.${resource}.${verb}`,
          description: `${verb} — ${scopeDescriptions[resource]}`,
        })),
      ),
      {
        scope: INTEGRATOR_SCOPE,
        description: "Manage the integration's own webhook subscriptions (integrator surface)",
      },
    ],
  };
}
