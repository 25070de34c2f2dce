import type { TenantTx } from "../../../db/tenant-db.ts";
import { AppError, notFound } from "../../../core/errors.ts";

type LockedProduct = { id: string; isDeleted: boolean; isLocked: boolean; revisionNumber: number };

/**
 * Locks a live product's row for the rest of the transaction, so edits of its features and
 * assets (ordering, uniqueness) are serialised per product. Raw SQL: filters the tenant itself.
 * Unknown, foreign and deleted products are 404; a locked product refuses edits unless
 * `allowLocked`.
 */
export async function lockLiveProduct(
  tx: TenantTx,
  tenantId: string,
  productId: string,
  options: { allowLocked?: boolean } = {},
): Promise<LockedProduct> {
  const rows = await tx.$queryRaw<LockedProduct[]>`
    SELECT id, "isDeleted", "isLocked", "revisionNumber" FROM "Product"
    WHERE "tenantId" = ${tenantId}::uuid AND id = ${productId}::uuid FOR UPDATE`;
  const product = rows[0];
  if (!product || product.isDeleted) throw notFound("Product");
  if (product.isLocked && !options.allowLocked) throw productLocked();
  return product;
}

export const productLocked = () =>
  new AppError(
    "product.locked",
    "The product is locked; unlock it (isLocked: false) before changing it, its features or its monitored assets.",
  );
