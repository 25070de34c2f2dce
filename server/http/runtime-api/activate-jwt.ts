import { route } from "../route.ts";
import { db } from "../../db/client.ts";
import { activateJwtContract } from "../contracts/licensing/activations.ts";
import { activationMeta } from "../runtime-request.ts";
import { activateForToken } from "../../domain/cross-tenant.ts";

// POST /api/v1/provision/activations/jwt
export const POST = route(activateJwtContract, async ({ req, body, rateLimits }) =>
  activateForToken(db(), body, await activationMeta(req, body.useInteractiveUser), rateLimits),
);
