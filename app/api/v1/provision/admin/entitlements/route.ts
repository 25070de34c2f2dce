import { route } from "@/server/http/route";
import {
  createEntitlementContract,
  listEntitlementsContract,
} from "@/server/http/contracts/entitlements/entitlements";
import { listEntitlements } from "@/server/domain/entitlements/entitlement/list-entitlements";
import { createEntitlement } from "@/server/domain/entitlements/entitlement/create-entitlement";

// GET /api/v1/provision/admin/entitlements
export const GET = route(listEntitlementsContract, ({ ctx, query }) => listEntitlements(ctx, query));

// POST /api/v1/provision/admin/entitlements
export const POST = route(createEntitlementContract, ({ ctx, body }) => createEntitlement(ctx, body));
