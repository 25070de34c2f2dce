import { route } from "@/server/http/route";
import { assignPlanContract } from "@/server/http/contracts/plan-changes";
import { assignPlan } from "@/server/domain/entitlements/assign-plan";

// PUT /api/v1/provision/admin/entitlements/{id}/plan
export const PUT = route(assignPlanContract, ({ ctx, params, body }) => assignPlan(ctx, params.id, body));
