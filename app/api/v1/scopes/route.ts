import { scopeCatalogDocument } from "@/server/domain/identity/scope-catalog-document";

// GET /api/v1/scopes — the published scope catalog (no authentication).
export function GET(): Response {
  return Response.json(scopeCatalogDocument(), { headers: { "cache-control": "public, max-age=300" } });
}
