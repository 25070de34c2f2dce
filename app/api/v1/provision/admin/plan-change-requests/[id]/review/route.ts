import { route } from "@/server/http/route";
import { reviewPlanChangeRequestContract } from "@/server/http/contracts/entitlements/plan-changes";
import { reviewPlanChangeRequest } from "@/server/domain/entitlements/plans/plan-change-requests";

// POST /api/v1/provision/admin/plan-change-requests/{id}/review
export const POST = route(reviewPlanChangeRequestContract, ({ ctx, params, body }) =>
  reviewPlanChangeRequest(ctx, params.id, body),
);
