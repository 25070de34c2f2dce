import { route } from "@/server/http/route";
import { createPlanChangeRequestContract } from "@/server/http/contracts/entitlements/plan-changes";
import { requestPlanChange } from "@/server/domain/entitlements/plans/plan-change-requests";

// POST /api/v1/provision/consumer/me/entitlements/{id}/plan-change-requests
export const POST = route(createPlanChangeRequestContract, ({ ctx, params, body }) =>
  requestPlanChange(ctx, params.id, body),
);
