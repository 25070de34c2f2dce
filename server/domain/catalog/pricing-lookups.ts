import type { TenantDbOrTx } from "../../db/tenant-db.ts";

/**
 * What suites, plan sets, add-ons and rating campaigns read from products and the feature catalog
 * (owned by the products work). Kept in one place so those models are read the same way
 * everywhere: a product or catalog entry is referenced by id only, with no foreign key, and is
 * checked when a reference is written.
 */

export type ProductSummary = {
  id: string;
  productCode: string;
  productVersion: string;
  name: string;
  isDeleted: boolean;
};

/** Products by id, soft-deleted ones included (a suite member keeps showing its code). */
export async function productsByIds(
  db: TenantDbOrTx,
  ids: readonly string[],
): Promise<Map<string, ProductSummary>> {
  if (ids.length === 0) return new Map();
  const rows = await db.product.findMany({
    where: { id: { in: [...new Set(ids)] } },
    select: { id: true, productCode: true, productVersion: true, name: true, isDeleted: true },
  });
  return new Map(rows.map((r) => [r.id, r]));
}

/** The ids among `ids` that name no live product. */
export async function missingLiveProducts(db: TenantDbOrTx, ids: readonly string[]): Promise<string[]> {
  const found = await productsByIds(db, ids);
  return ids.filter((id) => !found.get(id) || found.get(id)!.isDeleted);
}

export type FeatureEntry = {
  id: string;
  featureCode: string;
  name: string;
  units: string | null;
  metricName: string | null;
  featureType: string;
  lifecycleStatus: string;
  enumOptions: { value: string; description: string | null }[] | null;
  isDeleted: boolean;
};

const featureSelect = {
  id: true,
  featureCode: true,
  name: true,
  units: true,
  metricName: true,
  featureType: true,
  lifecycleStatus: true,
  enumOptions: true,
  isDeleted: true,
} as const;

type FeatureRow = Omit<FeatureEntry, "enumOptions"> & { enumOptions: unknown };

function toFeatureEntry(row: FeatureRow): FeatureEntry {
  const options = Array.isArray(row.enumOptions)
    ? (row.enumOptions as { value?: unknown; description?: unknown }[]).map((o) => ({
        value: String(o?.value ?? ""),
        description: typeof o?.description === "string" ? o.description : null,
      }))
    : null;
  return { ...row, enumOptions: options };
}

/** Feature codes are stored uppercase in the catalog; references are matched the same way. */
export const normalizeFeatureCode = (code: string) => code.trim().toUpperCase();

/** Live catalog entries by feature code (uppercase). A code that resolves to nothing is absent. */
export async function liveFeaturesByCode(
  db: TenantDbOrTx,
  codes: readonly string[],
): Promise<Map<string, FeatureEntry>> {
  const wanted = [...new Set(codes.map(normalizeFeatureCode))];
  if (wanted.length === 0) return new Map();
  const rows = await db.featureCatalogEntry.findMany({
    where: { featureCode: { in: wanted }, isDeleted: false },
    select: featureSelect,
  });
  return new Map(rows.map((r) => [r.featureCode, toFeatureEntry(r)]));
}

/** Catalog entries by id, soft-deleted ones included (`isDeleted` tells). */
export async function featuresByIds(
  db: TenantDbOrTx,
  ids: readonly string[],
): Promise<Map<string, FeatureEntry>> {
  if (ids.length === 0) return new Map();
  const rows = await db.featureCatalogEntry.findMany({
    where: { id: { in: [...new Set(ids)] } },
    select: featureSelect,
  });
  return new Map(rows.map((r) => [r.id, toFeatureEntry(r)]));
}
