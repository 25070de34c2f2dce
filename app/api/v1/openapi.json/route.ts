import { buildOpenApi } from "@/server/http/openapi";

const document = buildOpenApi();

// GET /api/v1/openapi.json — generated from the zod schemas of every route.
export function GET(): Response {
  return Response.json(document, { headers: { "cache-control": "public, max-age=60" } });
}
