import { route } from "@/server/http/route";
import { listPlanSetRevisionsContract } from "@/server/http/contracts/pricing/plan-sets";
import { listPlanSetRevisions } from "@/server/domain/pricing/plan-sets/list-plan-set-revisions";

// GET /api/v1/provision/admin/usage-plans/plan-sets/{planSetId}/revisions
export const GET = route(listPlanSetRevisionsContract, ({ ctx, params, query }) =>
  listPlanSetRevisions(ctx, params.planSetId, query),
);
