import { route } from "@/server/http/route";
import { enableActivationsContract } from "@/server/http/contracts/entitlements";
import { setActivationsEnabled } from "@/server/domain/entitlements/update-entitlement";

// POST /api/v1/provision/admin/entitlements/{id}/enable-activations
export const POST = route(enableActivationsContract, ({ ctx, params }) => setActivationsEnabled(ctx, params.id, true));
