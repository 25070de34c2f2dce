import { route } from "@/server/http/route";
import { db } from "@/server/db/client";
import { activateJwtContract } from "@/server/http/contracts/activations";
import { activationMeta } from "@/server/http/runtime-request";
import { activateForToken } from "@/server/domain/licensing/activation-responses";

// POST /api/v1/provision/activations/jwt
export const POST = route(activateJwtContract, async ({ req, body }) => activateForToken(db(), body, await activationMeta(req, body.useInteractiveUser)));
