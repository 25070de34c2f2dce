import { route } from "@/server/http/route";
import { movePlanSetStatusContract } from "@/server/http/contracts/pricing/plan-sets";
import { movePlanSetStatus } from "@/server/domain/pricing/plan-sets/move-plan-set-status";

// PUT /api/v1/provision/admin/usage-plans/plan-sets/{planSetId}/status
export const PUT = route(movePlanSetStatusContract, ({ ctx, params, body }) =>
  movePlanSetStatus(ctx, params.planSetId, body.status),
);
