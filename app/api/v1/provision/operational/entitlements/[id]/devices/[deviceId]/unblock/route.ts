import { route } from "@/server/http/route";
import { unblockDeviceContract } from "@/server/http/contracts/licensing/devices";
import { unblockDevice } from "@/server/domain/licensing/devices/block-device";

// POST /api/v1/provision/operational/entitlements/{id}/devices/{deviceId}/unblock
export const POST = route(unblockDeviceContract, ({ ctx, params }) =>
  unblockDevice(ctx, params.id, params.deviceId),
);
