import { route } from "@/server/http/route";
import { listPlanChangeRequestsContract } from "@/server/http/contracts/entitlements/plan-changes";
import { listPlanChangeRequests } from "@/server/domain/entitlements/plans/plan-change-requests";

// GET /api/v1/provision/admin/plan-change-requests
export const GET = route(listPlanChangeRequestsContract, ({ ctx, query }) =>
  listPlanChangeRequests(ctx, query),
);
