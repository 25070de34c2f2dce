import { route } from "@/server/http/route";
import { revokeOfferAddOnGrantContract } from "@/server/http/contracts/entitlements/add-on-grants";
import { revokeAddOnGrant } from "@/server/domain/entitlements/add-on-grants/add-on-grants";

// POST /api/v1/provision/admin/offers/{id}/add-on-grants/{grantId}/revoke
export const POST = route(revokeOfferAddOnGrantContract, ({ ctx, params }) =>
  revokeAddOnGrant(ctx, params.id, params.grantId, "Offer"),
);
