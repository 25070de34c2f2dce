import { tagEdges, type Edge, type SectionExporter } from "./section-exporter.ts";
import { recordTagRefs } from "./record-tag-refs.ts";
import { toFeatureCatalogResponse } from "../../catalog/feature-catalog/feature-catalog-response.ts";

/** The feature catalog: live entries, each naming the product it was made for (if any). */
export const featureCatalogExporter: SectionExporter<"featureCatalog"> = {
  async allIds(db) {
    const rows = await db.featureCatalogEntry.findMany({ where: { isDeleted: false }, select: { id: true } });
    return rows.map((r) => r.id);
  },
  async read(db, ids) {
    const rows = await db.featureCatalogEntry.findMany({ where: { id: { in: [...ids] }, isDeleted: false } });
    const tags = await recordTagRefs(
      db,
      rows.map((r) => r.id),
    );
    return new Map(
      rows.map((row) => {
        const rowTags = tags.get(row.id) ?? [];
        const edges: Edge[] = [...tagEdges(rowTags)];
        if (row.productId) edges.push({ field: "productId", kind: "Product", id: row.productId });
        // The entry's response without what is the source tenant's own (timestamps, counters).
        const {
          isDeleted: _deleted,
          creationTimeStamp: _created,
          lastUpdateTimeStamp: _updated,
          revisionNumber: _revision,
          ...item
        } = toFeatureCatalogResponse(
          row,
          rowTags.map((t) => t.name),
          null,
        );
        // docs/api.md: referencedBy is null where not computed, such as in a catalog export.
        return [row.id, { item: { ...item, referencedBy: null }, edges }];
      }),
    );
  },
};
