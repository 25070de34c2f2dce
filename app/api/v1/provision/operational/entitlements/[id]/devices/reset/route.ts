import { route } from "@/server/http/route";
import { resetDevicesContract } from "@/server/http/contracts/licensing/devices";
import { resetDevices } from "@/server/domain/licensing/devices/reset-devices";

// POST /api/v1/provision/operational/entitlements/{id}/devices/reset
export const POST = route(resetDevicesContract, ({ ctx, params }) => resetDevices(ctx, params.id));
