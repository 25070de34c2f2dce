import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { clearRecordTags } from "../tags/record-tags.ts";
import { lockLiveProduct } from "../products/product-lock.ts";
import { meteringOwnerStatuses } from "./monitored-asset-rules.ts";

/**
 * DELETE /admin/monitored-assets/{id}. A product's asset is deleted with its usage objects
 * (copies held by entitlements and offers stay; they lose only their link to the source). A copy
 * held by a Draft or Published entitlement or offer is refused: metering draws on it.
 */
export async function deleteMonitoredAsset(ctx: DomainContext, id: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const asset = await tx.monitoredAsset.findUnique({
      where: { id },
      select: { ownerKind: true, ownerStatus: true, productId: true, metricName: true },
    });
    if (!asset) throw notFound("Monitored asset");
    if (asset.ownerKind === "Product" && asset.productId)
      await lockLiveProduct(tx, ctx.tenantId, asset.productId);
    if (asset.ownerKind !== "Product" && meteringOwnerStatuses.includes(asset.ownerStatus ?? "")) {
      throw new AppError(
        "asset.in_use",
        `The ${asset.ownerKind.toLowerCase()} holding "${asset.metricName}" is ${asset.ownerStatus}; metering draws on it.`,
      );
    }
    await tx.monitoredAsset.delete({ where: { id } });
    await clearRecordTags(tx, id);
  });
}
