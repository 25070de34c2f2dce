import { route } from "@/server/http/route";
import { planHistoryContract } from "@/server/http/contracts/entitlements/plan-changes";
import { listPlanHistory } from "@/server/domain/entitlements/plans/assign-plan";

// GET /api/v1/provision/admin/entitlements/{id}/plan-history
export const GET = route(planHistoryContract, ({ ctx, params, query }) =>
  listPlanHistory(ctx, params.id, query),
);
