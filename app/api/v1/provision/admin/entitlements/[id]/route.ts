import { route } from "@/server/http/route";
import {
  deleteEntitlementContract,
  getEntitlementContract,
  updateEntitlementContract,
} from "@/server/http/contracts/entitlements/entitlements";
import { getEntitlement } from "@/server/domain/entitlements/entitlement/list-entitlements";
import {
  deleteEntitlement,
  updateEntitlement,
} from "@/server/domain/entitlements/entitlement/update-entitlement";

// GET /api/v1/provision/admin/entitlements/{id}
export const GET = route(getEntitlementContract, ({ ctx, params }) => getEntitlement(ctx, params.id));

// PATCH /api/v1/provision/admin/entitlements/{id}
export const PATCH = route(updateEntitlementContract, ({ ctx, params, body }) =>
  updateEntitlement(ctx, params.id, body),
);

// DELETE /api/v1/provision/admin/entitlements/{id}
export const DELETE = route(deleteEntitlementContract, ({ ctx, params }) =>
  deleteEntitlement(ctx, params.id),
);
