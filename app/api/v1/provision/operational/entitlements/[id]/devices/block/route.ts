import { route } from "@/server/http/route";
import { blockDeviceContract } from "@/server/http/contracts/licensing/devices";
import { blockDevice } from "@/server/domain/licensing/devices/block-device";

// POST /api/v1/provision/operational/entitlements/{id}/devices/block
export const POST = route(blockDeviceContract, ({ ctx, params, body }) => blockDevice(ctx, params.id, body));
