import type { DomainContext } from "../../context.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import type { TMonitoredAssetCreateRequest } from "./monitored-asset.schemas.ts";
import { setRecordTags } from "../tags/record-tags.ts";
import { lockLiveProduct } from "../products/product-lock.ts";
import { loadMonitoredAsset } from "./monitored-asset-response.ts";
import { balanceMetricNames, checkTiers, metricNameTaken } from "./monitored-asset-rules.ts";
import { balanceUsageData, meteredUsageData } from "./usage-data.ts";

/**
 * POST /admin/products/{id}/monitored-assets: a metric the product tracks, unique per product by
 * its (lowercase, case-sensitive) metricName, with meteredUsage or balanceUsage or neither.
 * Tiers that fund overage name one of the product's credit balances.
 */
export async function createMonitoredAsset(
  ctx: DomainContext,
  productId: string,
  input: TMonitoredAssetCreateRequest,
) {
  try {
    return await inTransaction(ctx.db, async (tx) => {
      await lockLiveProduct(tx, ctx.tenantId, productId);
      if (input.meteredUsage)
        checkTiers(input.meteredUsage.usageTiers, await balanceMetricNames(tx, [productId]));
      const asset = await tx.monitoredAsset.create({
        data: {
          tenantId: ctx.tenantId,
          ownerKind: "Product",
          ownerId: productId,
          productId,
          metricName: input.metricName,
          name: input.name,
          description: input.description,
          unit: input.unit,
          category: input.category,
          numberFormat: input.numberFormat,
          metricType: input.metricType,
          allowedBackDatingTolerance: input.allowedBackDatingTolerance,
          usageRecordCeiling: input.usageRecordCeiling,
          usageBatchCeiling: input.usageBatchCeiling,
        },
      });
      if (input.meteredUsage) {
        await tx.meteredUsage.create({
          data: {
            tenantId: ctx.tenantId,
            monitoredAssetId: asset.id,
            ...meteredUsageData(input.meteredUsage),
          },
        });
      }
      if (input.balanceUsage) {
        await tx.balanceUsage.create({
          data: {
            tenantId: ctx.tenantId,
            monitoredAssetId: asset.id,
            ...balanceUsageData(input.balanceUsage, { isTemplate: true }),
          },
        });
      }
      await setRecordTags(tx, ctx.tenantId, "MonitoredAsset", asset.id, input.tags);
      return (await loadMonitoredAsset(tx, asset.id))!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw metricNameTaken(input.metricName);
    throw error;
  }
}
