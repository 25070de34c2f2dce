import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { lockLiveProduct } from "./product-lock.ts";
import { liveFeatures, renumberFeatures } from "./product-feature-order.ts";

/**
 * DELETE /admin/products/{id}/features/{featureId}: soft delete (the row keeps `isDeleted: true`
 * for anything that copied it); the remaining features close up to 1..n.
 */
export async function removeProductFeature(
  ctx: DomainContext,
  productId: string,
  featureId: string,
): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    await lockLiveProduct(tx, ctx.tenantId, productId);
    const { count } = await tx.productFeature.updateMany({
      where: { id: featureId, productId, isDeleted: false },
      data: { isDeleted: true, revisionNumber: { increment: 1 } },
    });
    if (count === 0) throw notFound("Product feature");
    await renumberFeatures(tx, await liveFeatures(tx, productId));
  });
}
