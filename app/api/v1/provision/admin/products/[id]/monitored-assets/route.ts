import { route } from "@/server/http/route";
import {
  createProductMonitoredAssetContract,
  listProductMonitoredAssetsContract,
} from "@/server/http/contracts/catalog/products";
import { listProductMonitoredAssets } from "@/server/domain/catalog/monitored-assets/list-monitored-assets";
import { createMonitoredAsset } from "@/server/domain/catalog/monitored-assets/create-monitored-asset";

// GET /api/v1/provision/admin/products/{id}/monitored-assets
export const GET = route(listProductMonitoredAssetsContract, ({ ctx, params, query }) =>
  listProductMonitoredAssets(ctx, params.id, query),
);

// POST /api/v1/provision/admin/products/{id}/monitored-assets
export const POST = route(createProductMonitoredAssetContract, ({ ctx, params, body }) =>
  createMonitoredAsset(ctx, params.id, body),
);
