import { route } from "@/server/http/route";
import { listEntitlementDevicesContract } from "@/server/http/contracts/licensing/devices";
import { listEntitlementDevices } from "@/server/domain/licensing/devices/list-entitlement-devices";

// GET /api/v1/provision/admin/entitlements/{id}/devices
export const GET = route(listEntitlementDevicesContract, ({ ctx, params, query }) =>
  listEntitlementDevices(ctx, params.id, query),
);
