import { router, staffProcedure } from "../../init.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import {
  ZAssetBalanceParams,
  ZMonitoredAssetIdParams,
  ZMonitoredAssetResponse,
  ZMonitoredAssetUpdateRequest,
} from "../../../domain/catalog/monitored-assets/monitored-asset.schemas.ts";
import { listMonitoredAssets } from "../../../domain/catalog/monitored-assets/list-monitored-assets.ts";
import { getMonitoredAsset } from "../../../domain/catalog/monitored-assets/get-monitored-asset.ts";
import { updateMonitoredAsset } from "../../../domain/catalog/monitored-assets/update-monitored-asset.ts";
import { deleteMonitoredAsset } from "../../../domain/catalog/monitored-assets/delete-monitored-asset.ts";
import { deleteAssetBalance } from "../../../domain/catalog/monitored-assets/delete-asset-balance.ts";

export const monitoredAssetsRouter = router({
  list: staffProcedure("catalog")
    .input(ZListQuery)
    .output(ZPage(ZMonitoredAssetResponse))
    .query(({ ctx, input }) => listMonitoredAssets(ctx.domain, input)),

  get: staffProcedure("catalog")
    .input(ZMonitoredAssetIdParams)
    .output(ZMonitoredAssetResponse)
    .query(({ ctx, input }) => getMonitoredAsset(ctx.domain, input.id)),

  update: staffProcedure("catalog")
    .input(ZMonitoredAssetIdParams.extend({ patch: ZMonitoredAssetUpdateRequest }))
    .output(ZMonitoredAssetResponse)
    .mutation(({ ctx, input }) => updateMonitoredAsset(ctx.domain, input.id, input.patch)),

  delete: staffProcedure("catalog")
    .input(ZMonitoredAssetIdParams)
    .mutation(({ ctx, input }) => deleteMonitoredAsset(ctx.domain, input.id)),

  deleteBalance: staffProcedure("catalog")
    .input(ZAssetBalanceParams)
    .mutation(({ ctx, input }) => deleteAssetBalance(ctx.domain, input.balanceId)),
});
