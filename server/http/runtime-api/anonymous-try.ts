import { route } from "../route.ts";
import { db } from "../../db/client.ts";
import { anonymousTryContract } from "../contracts/entitlements/anonymous-try.ts";
import { activationMeta } from "../runtime-request.ts";
import { issueAnonymousTry } from "../../domain/cross-tenant.ts";

// POST /api/v1/provision/activations/anonymous-try
export const POST = route(anonymousTryContract, async ({ req, body }) =>
  issueAnonymousTry(db(), body, await activationMeta(req, false)),
);
