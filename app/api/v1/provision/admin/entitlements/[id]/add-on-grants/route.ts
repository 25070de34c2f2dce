import { route } from "@/server/http/route";
import {
  createAddOnGrantContract,
  listAddOnGrantsContract,
} from "@/server/http/contracts/entitlements/add-on-grants";
import { grantAddOn, listAddOnGrants } from "@/server/domain/entitlements/add-on-grants/add-on-grants";

// GET /api/v1/provision/admin/entitlements/{id}/add-on-grants
export const GET = route(listAddOnGrantsContract, ({ ctx, params, query }) =>
  listAddOnGrants(ctx, params.id, query),
);

// POST /api/v1/provision/admin/entitlements/{id}/add-on-grants
export const POST = route(createAddOnGrantContract, ({ ctx, params, body }) =>
  grantAddOn(ctx, params.id, body),
);
