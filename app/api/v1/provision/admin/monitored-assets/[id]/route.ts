import { route } from "@/server/http/route";
import {
  deleteMonitoredAssetContract,
  getMonitoredAssetContract,
  updateMonitoredAssetContract,
} from "@/server/http/contracts/catalog/monitored-assets";
import { getMonitoredAsset } from "@/server/domain/catalog/monitored-assets/get-monitored-asset";
import { updateMonitoredAsset } from "@/server/domain/catalog/monitored-assets/update-monitored-asset";
import { deleteMonitoredAsset } from "@/server/domain/catalog/monitored-assets/delete-monitored-asset";

// GET /api/v1/provision/admin/monitored-assets/{id}
export const GET = route(getMonitoredAssetContract, ({ ctx, params }) => getMonitoredAsset(ctx, params.id));

// PATCH /api/v1/provision/admin/monitored-assets/{id}
export const PATCH = route(updateMonitoredAssetContract, ({ ctx, params, body }) =>
  updateMonitoredAsset(ctx, params.id, body),
);

// DELETE /api/v1/provision/admin/monitored-assets/{id}
export const DELETE = route(deleteMonitoredAssetContract, ({ ctx, params }) =>
  deleteMonitoredAsset(ctx, params.id),
);
