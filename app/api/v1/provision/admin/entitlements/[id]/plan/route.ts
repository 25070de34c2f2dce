import { route } from "@/server/http/route";
import { assignPlanContract } from "@/server/http/contracts/entitlements/plan-changes";
import { assignPlan } from "@/server/domain/entitlements/plans/assign-plan";

// PUT /api/v1/provision/admin/entitlements/{id}/plan
export const PUT = route(assignPlanContract, ({ ctx, params, body }) => assignPlan(ctx, params.id, body));
