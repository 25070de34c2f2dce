import { route } from "@/server/http/route";
import { db } from "@/server/db/client";
import { activateJwtContract } from "@/server/http/contracts/licensing/activations";
import { activationMeta } from "@/server/http/runtime-request";
import { activateForToken } from "@/server/domain/cross-tenant";

// POST /api/v1/provision/activations/jwt
export const POST = route(activateJwtContract, async ({ req, body, rateLimits }) =>
  activateForToken(db(), body, await activationMeta(req, body.useInteractiveUser), rateLimits),
);
