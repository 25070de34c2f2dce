import { route } from "@/server/http/route";
import { db } from "@/server/db/client";
import { anonymousTryContract } from "@/server/http/contracts/entitlements/anonymous-try";
import { activationMeta } from "@/server/http/runtime-request";
import { issueAnonymousTry } from "@/server/domain/cross-tenant";

// POST /api/v1/provision/activations/anonymous-try
export const POST = route(anonymousTryContract, async ({ req, body }) =>
  issueAnonymousTry(db(), body, await activationMeta(req, false)),
);
