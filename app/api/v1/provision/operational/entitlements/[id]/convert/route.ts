import { route } from "@/server/http/route";
import { convertAnonymousTryContract } from "@/server/http/contracts/entitlements/entitlement-lifecycle";
import { convertAnonymousTry } from "@/server/domain/entitlements/anonymous-try/convert-anonymous-try";

// POST /api/v1/provision/operational/entitlements/{id}/convert
export const POST = route(convertAnonymousTryContract, ({ ctx, params, body }) =>
  convertAnonymousTry(ctx, params.id, body.convertedToEntitlementId),
);
