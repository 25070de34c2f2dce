import { route } from "@/server/http/route";
import { entitlementMetersContract } from "@/server/http/contracts/metering/usage";
import { listEntitlementMeters } from "@/server/domain/metering/meters/list-entitlement-meters";

// GET /api/v1/provision/operational/entitlements/{id}/meters (scope provision.usage.read)
export const GET = route(entitlementMetersContract, ({ ctx, params }) =>
  listEntitlementMeters(ctx, params.id),
);
