import type { TenantTx } from "../../../db/tenant-db.ts";

/**
 * Rewrites the sortOrder of a product's live features to 1..n in the given order, touching only
 * the rows whose position changed. Runs under the product's row lock (lockLiveProduct).
 */
export async function renumberFeatures(
  tx: TenantTx,
  ordered: readonly { id: string; sortOrder: number }[],
): Promise<void> {
  for (const [index, feature] of ordered.entries()) {
    if (feature.sortOrder !== index + 1) {
      await tx.productFeature.update({ where: { id: feature.id }, data: { sortOrder: index + 1 } });
    }
  }
}

/** The live features of a product in their current order. */
export function liveFeatures(tx: TenantTx, productId: string) {
  return tx.productFeature.findMany({
    where: { productId, isDeleted: false },
    orderBy: [{ sortOrder: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    select: { id: true, sortOrder: true, featureCatalogId: true },
  });
}

/** `list` with `item` moved to 1-based `position` (clamped to the list). */
export function placeAt<T>(list: readonly T[], item: T, position: number | null | undefined): T[] {
  const rest = list.filter((x) => x !== item);
  const index = position == null ? rest.length : Math.min(Math.max(position - 1, 0), rest.length);
  return [...rest.slice(0, index), item, ...rest.slice(index)];
}
