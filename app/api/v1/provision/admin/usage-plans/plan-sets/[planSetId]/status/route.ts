import { route } from "@/server/http/route";
import { movePlanSetStatusContract } from "@/server/http/contracts/plan-sets";
import { movePlanSetStatus } from "@/server/domain/catalog/move-plan-set-status";

// PUT /api/v1/provision/admin/usage-plans/plan-sets/{planSetId}/status
export const PUT = route(movePlanSetStatusContract, ({ ctx, params, body }) => movePlanSetStatus(ctx, params.planSetId, body.status));
