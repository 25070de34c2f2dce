import { reply, route } from "@/server/http/route";
import { db } from "@/server/db/client";
import { tenantJwksContract } from "@/server/http/contracts/jwks";
import { tenantJwks } from "@/server/domain/identity/tenant-jwks";

// GET /api/v1/provision/tenants/{tenantId}/jwks.json (anonymous; cacheable for five minutes)
export const GET = route(tenantJwksContract, async ({ params }) =>
  reply(200, await tenantJwks(db(), params.tenantId), { "cache-control": "public, max-age=300" }),
);
