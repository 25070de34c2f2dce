import { route } from "@/server/http/route";
import {
  createOfferAddOnGrantContract,
  listOfferAddOnGrantsContract,
} from "@/server/http/contracts/entitlements/add-on-grants";
import {
  grantOfferAddOn,
  listOfferAddOnGrants,
} from "@/server/domain/entitlements/add-on-grants/add-on-grants";

// GET /api/v1/provision/admin/offers/{id}/add-on-grants
export const GET = route(listOfferAddOnGrantsContract, ({ ctx, params, query }) =>
  listOfferAddOnGrants(ctx, params.id, query),
);

// POST /api/v1/provision/admin/offers/{id}/add-on-grants
export const POST = route(createOfferAddOnGrantContract, ({ ctx, params, body }) =>
  grantOfferAddOn(ctx, params.id, body),
);
