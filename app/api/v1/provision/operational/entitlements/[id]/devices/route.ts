import { route } from "@/server/http/route";
import { preRegisterDeviceContract } from "@/server/http/contracts/licensing/devices";
import { preRegisterDevice } from "@/server/domain/licensing/devices/pre-register-device";

// POST /api/v1/provision/operational/entitlements/{id}/devices
export const POST = route(preRegisterDeviceContract, ({ ctx, params, body }) =>
  preRegisterDevice(ctx, params.id, body),
);
