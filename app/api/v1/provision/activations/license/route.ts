import { route } from "@/server/http/route";
import { db } from "@/server/db/client";
import { activateLicenseContract } from "@/server/http/contracts/licensing/activations";
import { activationMeta } from "@/server/http/runtime-request";
import { activateForLicense } from "@/server/domain/cross-tenant";

// POST /api/v1/provision/activations/license
export const POST = route(activateLicenseContract, async ({ req, body, rateLimits }) =>
  activateForLicense(db(), body, await activationMeta(req, body.useInteractiveUser), rateLimits),
);
