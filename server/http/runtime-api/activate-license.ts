import { route } from "../route.ts";
import { db } from "../../db/client.ts";
import { activateLicenseContract } from "../contracts/licensing/activations.ts";
import { activationMeta } from "../runtime-request.ts";
import { activateForLicense } from "../../domain/cross-tenant.ts";

// POST /api/v1/provision/activations/license
export const POST = route(activateLicenseContract, async ({ req, body, rateLimits }) =>
  activateForLicense(db(), body, await activationMeta(req, body.useInteractiveUser), rateLimits),
);
