import { route } from "@/server/http/route";
import { effectiveFeaturesContract } from "@/server/http/contracts/plan-changes";
import { getEffectiveFeatures } from "@/server/domain/entitlements/effective-features";

// GET /api/v1/provision/admin/entitlements/{id}/effective-features
export const GET = route(effectiveFeaturesContract, ({ ctx, params }) => getEffectiveFeatures(ctx, params.id));
