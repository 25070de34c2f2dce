import { route } from "@/server/http/route";
import { createPlanSetContract, listPlanSetsContract } from "@/server/http/contracts/pricing/plan-sets";
import { listPlanSets } from "@/server/domain/pricing/plan-sets/list-plan-sets";
import { createPlanSet } from "@/server/domain/pricing/plan-sets/create-plan-set";

// GET /api/v1/provision/admin/usage-plans/plan-sets
export const GET = route(listPlanSetsContract, ({ ctx, query }) => listPlanSets(ctx, query));

// POST /api/v1/provision/admin/usage-plans/plan-sets
export const POST = route(createPlanSetContract, ({ ctx, body }) => createPlanSet(ctx, body));
