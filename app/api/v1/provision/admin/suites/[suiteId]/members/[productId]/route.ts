import { route } from "@/server/http/route";
import { deleteSuiteMemberContract } from "@/server/http/contracts/pricing/suites";
import { deleteSuiteMember } from "@/server/domain/pricing/suites/delete-suite-member";

// DELETE /api/v1/provision/admin/suites/{suiteId}/members/{productId}
export const DELETE = route(deleteSuiteMemberContract, ({ ctx, params }) =>
  deleteSuiteMember(ctx, params.suiteId, params.productId.toLowerCase()),
);
