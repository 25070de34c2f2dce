import { createHash } from "node:crypto";
import { reply, route } from "@/server/http/route";
import { db } from "@/server/db/client";
import { tenantJwksContract } from "@/server/http/contracts/licensing/jwks";
import { tenantJwks } from "@/server/domain/identity/tenant-jwks";

/**
 * Shipped applications fetch this on start and when a token names a kid they do not have: five
 * minutes of caching, and an ETag so a refetch of an unchanged set is a 304 without a body.
 */
const CACHE_CONTROL = "public, max-age=300";

/** Whether an If-None-Match header (a list, weak or strong, or `*`) names the current tag. */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((t) => t.trim().replace(/^W\//, ""))
    .some((t) => t === "*" || t === etag);
}

// GET /api/v1/provision/tenants/{tenantId}/jwks.json (anonymous; cacheable, revalidated by ETag)
export const GET = route(tenantJwksContract, async ({ params, req }) => {
  const jwks = await tenantJwks(db(), params.tenantId);
  const etag = `"${createHash("sha256").update(JSON.stringify(jwks)).digest("base64url").slice(0, 27)}"`;
  const headers = { "cache-control": CACHE_CONTROL, etag };
  if (matches(req.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  return reply(200, jwks, headers);
});
