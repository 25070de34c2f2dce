import { route } from "@/server/http/route";
import { setSuiteMembersContract } from "@/server/http/contracts/pricing/suites";
import { setSuiteMembers } from "@/server/domain/pricing/suites/set-suite-members";

// POST /api/v1/provision/admin/suites/{suiteId}/members
export const POST = route(setSuiteMembersContract, ({ ctx, params, body }) =>
  setSuiteMembers(ctx, params.suiteId, body),
);
