import { route } from "@/server/http/route";
import { getPlanSetContract, updatePlanSetContract } from "@/server/http/contracts/pricing/plan-sets";
import { getPlanSet } from "@/server/domain/pricing/plan-sets/get-plan-set";
import { updatePlanSet } from "@/server/domain/pricing/plan-sets/update-plan-set";

// GET /api/v1/provision/admin/usage-plans/plan-sets/{planSetId}
export const GET = route(getPlanSetContract, ({ ctx, params }) => getPlanSet(ctx, params.planSetId));

// PUT /api/v1/provision/admin/usage-plans/plan-sets/{planSetId}
export const PUT = route(updatePlanSetContract, ({ ctx, params, body }) =>
  updatePlanSet(ctx, params.planSetId, body),
);
