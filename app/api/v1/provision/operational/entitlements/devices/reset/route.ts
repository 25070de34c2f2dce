import { route } from "@/server/http/route";
import { resetDevicesBulkContract } from "@/server/http/contracts/licensing/devices";
import { resetDevicesBulk } from "@/server/domain/licensing/devices/reset-devices";

// POST /api/v1/provision/operational/entitlements/devices/reset
export const POST = route(resetDevicesBulkContract, ({ ctx, body }) =>
  resetDevicesBulk(ctx, body.entitlementIds),
);
