import { route } from "@/server/http/route";
import { disableActivationsContract } from "@/server/http/contracts/entitlements/entitlements";
import { setActivationsEnabled } from "@/server/domain/entitlements/entitlement/update-entitlement";

// POST /api/v1/provision/admin/entitlements/{id}/disable-activations
export const POST = route(disableActivationsContract, ({ ctx, params }) =>
  setActivationsEnabled(ctx, params.id, false),
);
