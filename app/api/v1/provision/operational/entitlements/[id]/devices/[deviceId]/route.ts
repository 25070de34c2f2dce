import { route } from "@/server/http/route";
import { removePreRegisteredDeviceContract } from "@/server/http/contracts/licensing/devices";
import { removePreRegisteredDevice } from "@/server/domain/licensing/devices/pre-register-device";

// DELETE /api/v1/provision/operational/entitlements/{id}/devices/{deviceId}
export const DELETE = route(removePreRegisteredDeviceContract, async ({ ctx, params }) =>
  removePreRegisteredDevice(ctx, params.id, params.deviceId),
);
