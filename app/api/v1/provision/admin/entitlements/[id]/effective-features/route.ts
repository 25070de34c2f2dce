import { route } from "@/server/http/route";
import { effectiveFeaturesContract } from "@/server/http/contracts/entitlements/plan-changes";
import { getEffectiveFeatures } from "@/server/domain/entitlements/entitlement/effective-features";

// GET /api/v1/provision/admin/entitlements/{id}/effective-features
export const GET = route(effectiveFeaturesContract, ({ ctx, params }) =>
  getEffectiveFeatures(ctx, params.id),
);
