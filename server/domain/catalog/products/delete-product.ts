import type { DomainContext } from "../../context.ts";
import { AppError } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { clearRecordTags } from "../tags/record-tags.ts";
import { lockLiveProduct } from "./product-lock.ts";
import { blockingProductReferences, productReferencedBy } from "./product-references.ts";

/**
 * Soft delete. A product that entitlements, offers, suites or plan-set revisions refer to is
 * refused (400 product.in_use, with the counts): remove it from its suites first. Its own
 * feature catalog entries do not block. The product leaves its tags; its code + version become
 * free; its features and monitored assets stay with the deleted row (copies elsewhere are untouched).
 */
export async function deleteProduct(ctx: DomainContext, id: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    await lockLiveProduct(tx, ctx.tenantId, id);
    const counts = (await productReferencedBy(tx, [id])).get(id)!;
    const blocking = blockingProductReferences(counts);
    if (blocking.length) {
      throw new AppError(
        "product.in_use",
        `The product is referenced by ${blocking.join(", ")}; it cannot be deleted while they refer to it.`,
        {
          issues: Object.entries(counts)
            .filter(([key, n]) => n > 0 && key !== "features")
            .map(([key, n]) => ({ path: `referencedBy.${key}`, message: String(n) })),
        },
      );
    }
    await tx.product.update({
      where: { id },
      data: { isDeleted: true, activeCodeKey: null, revisionNumber: { increment: 1 } },
    });
    await clearRecordTags(tx, id);
  });
}
