import { route } from "@/server/http/route";
import { preRegisterDeviceContract } from "@/server/http/contracts/devices";
import { preRegisterDevice } from "@/server/domain/licensing/pre-register-device";

// POST /api/v1/provision/operational/entitlements/{id}/devices
export const POST = route(preRegisterDeviceContract, ({ ctx, params, body }) => preRegisterDevice(ctx, params.id, body));
