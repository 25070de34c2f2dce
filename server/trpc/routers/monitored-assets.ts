import { router, staffProcedure } from "../init.ts";
import { ZListQuery, ZPage } from "../../http/pagination.ts";
import {
  ZAssetBalanceParams, ZMonitoredAssetIdParams, ZMonitoredAssetResponse, ZMonitoredAssetUpdateRequest,
} from "../../domain/catalog/monitored-asset.schemas.ts";
import { listMonitoredAssets } from "../../domain/catalog/list-monitored-assets.ts";
import { getMonitoredAsset } from "../../domain/catalog/get-monitored-asset.ts";
import { updateMonitoredAsset } from "../../domain/catalog/update-monitored-asset.ts";
import { deleteMonitoredAsset } from "../../domain/catalog/delete-monitored-asset.ts";
import { deleteAssetBalance } from "../../domain/catalog/delete-asset-balance.ts";

export const monitoredAssetsRouter = router({
  list: staffProcedure.input(ZListQuery).output(ZPage(ZMonitoredAssetResponse)).query(({ ctx, input }) => listMonitoredAssets(ctx.domain, input)),

  get: staffProcedure.input(ZMonitoredAssetIdParams).output(ZMonitoredAssetResponse).query(({ ctx, input }) => getMonitoredAsset(ctx.domain, input.id)),

  update: staffProcedure
    .input(ZMonitoredAssetIdParams.extend({ patch: ZMonitoredAssetUpdateRequest }))
    .output(ZMonitoredAssetResponse)
    .mutation(({ ctx, input }) => updateMonitoredAsset(ctx.domain, input.id, input.patch)),

  delete: staffProcedure.input(ZMonitoredAssetIdParams).mutation(({ ctx, input }) => deleteMonitoredAsset(ctx.domain, input.id)),

  deleteBalance: staffProcedure.input(ZAssetBalanceParams).mutation(({ ctx, input }) => deleteAssetBalance(ctx.domain, input.balanceId)),
});
