import { route } from "@/server/http/route";
import { renewEntitlementContract } from "@/server/http/contracts/entitlements/entitlement-lifecycle";
import { renewEntitlement } from "@/server/domain/entitlements/entitlement/renew-entitlement";

// POST /api/v1/provision/operational/entitlements/{id}/renew
export const POST = route(renewEntitlementContract, ({ ctx, params, body }) =>
  renewEntitlement(ctx, params.id, body),
);
