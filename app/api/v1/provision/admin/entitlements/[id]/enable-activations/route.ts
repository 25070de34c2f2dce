import { route } from "@/server/http/route";
import { enableActivationsContract } from "@/server/http/contracts/entitlements/entitlements";
import { setActivationsEnabled } from "@/server/domain/entitlements/entitlement/update-entitlement";

// POST /api/v1/provision/admin/entitlements/{id}/enable-activations
export const POST = route(enableActivationsContract, ({ ctx, params }) =>
  setActivationsEnabled(ctx, params.id, true),
);
