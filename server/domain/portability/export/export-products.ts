import { productFeatureOrder } from "../../catalog/products/product-response.ts";
import { tagEdges, type Edge, type SectionExporter } from "./section-exporter.ts";
import { recordTagRefs } from "./record-tag-refs.ts";
import { assetWithUsage, portableAsset } from "./export-monitored-assets.ts";
import { featureSettings, type TPortableProduct } from "../snapshot/snapshot-items.schemas.ts";

/**
 * Products (live ones): their own fields, their features in sortOrder (each naming its catalog
 * entry), and their monitored assets echoed for reading (docs/api.md: an importer takes assets from
 * the monitoredAssets section).
 */
export const productsExporter: SectionExporter<"products"> = {
  async allIds(db) {
    const rows = await db.product.findMany({ where: { isDeleted: false }, select: { id: true } });
    return rows.map((r) => r.id);
  },
  async read(db, ids) {
    const rows = await db.product.findMany({ where: { id: { in: [...ids] }, isDeleted: false } });
    const live = rows.map((r) => r.id);
    const [features, assets, tags] = await Promise.all([
      db.productFeature.findMany({
        where: { productId: { in: live }, isDeleted: false },
        orderBy: [...productFeatureOrder],
        include: { featureCatalog: { select: { featureCode: true } } },
      }),
      db.monitoredAsset.findMany({
        where: { productId: { in: live }, ownerKind: "Product" },
        orderBy: [{ metricName: "asc" }],
        include: assetWithUsage,
      }),
      recordTagRefs(db, live),
    ]);
    const assetTags = await recordTagRefs(
      db,
      assets.map((a) => a.id),
    );
    return new Map(
      rows.map((row) => {
        const rowTags = tags.get(row.id) ?? [];
        const rowFeatures = features.filter((f) => f.productId === row.id);
        const item: TPortableProduct = {
          id: row.id,
          productCode: row.productCode,
          productVersion: row.productVersion,
          name: row.name,
          description: row.description,
          status: row.status,
          expirationDate: row.expirationDate?.toISOString() ?? null,
          externalId: row.externalId,
          tags: rowTags.map((t) => t.name),
          propertyValues: (row.propertyValues ?? {}) as Record<string, unknown>,
          isLocked: row.isLocked,
          applicationScopes: row.applicationScopes,
          parentProductId: row.parentProductId,
          features: rowFeatures.map((f) => ({
            featureCatalogId: f.featureCatalogId,
            featureCode: f.featureCatalog.featureCode,
            ...featureSettings(f),
            sortOrder: f.sortOrder,
          })),
          monitoredAssets: assets
            .filter((a) => a.productId === row.id)
            .map((a) =>
              portableAsset(
                a,
                (assetTags.get(a.id) ?? []).map((t) => t.name),
              ),
            ),
        };
        const edges: Edge[] = [
          ...rowFeatures.map((f) => ({
            field: "features",
            kind: "FeatureCatalogEntry" as const,
            id: f.featureCatalogId,
          })),
          ...tagEdges(rowTags),
        ];
        if (row.parentProductId)
          edges.push({ field: "parentProductId", kind: "Product", id: row.parentProductId });
        // Its monitored assets travel in their own section (the nested copy is for reading only).
        const companions: Edge[] = assets
          .filter((a) => a.productId === row.id)
          .map((a) => ({ field: "monitoredAssets", kind: "MonitoredAsset" as const, id: a.id }));
        return [row.id, { item, edges, companions }];
      }),
    );
  },
};
