import type { Edge, SectionExporter } from "./section-exporter.ts";

/** Rating campaigns: their targets (catalog entries, in asking order) and the offers they ask about. */
export const ratingCampaignsExporter: SectionExporter<"ratingCampaigns"> = {
  async allIds(db) {
    const rows = await db.ratingCampaign.findMany({ select: { id: true } });
    return rows.map((r) => r.id);
  },
  async read(db, ids) {
    const rows = await db.ratingCampaign.findMany({
      where: { id: { in: [...ids] } },
      include: { targets: { orderBy: [{ position: "asc" }, { id: "asc" }] } },
    });
    return new Map(
      rows.map((row) => {
        const edges: Edge[] = [
          ...row.targets.map((t) => ({
            field: "targets",
            kind: "FeatureCatalogEntry" as const,
            id: t.featureCatalogId,
          })),
          ...row.offerIds.map((id) => ({ field: "offerIds", kind: "Offer" as const, id })),
        ];
        return [
          row.id,
          {
            item: {
              id: row.id,
              name: row.name,
              description: row.description,
              isEnabled: row.isEnabled,
              startsAt: row.startsAt?.toISOString() ?? null,
              endsAt: row.endsAt?.toISOString() ?? null,
              targets: row.targets.map((t) => ({
                featureCatalogId: t.featureCatalogId,
                question: t.question,
                priority: t.priority,
              })),
              offerIds: row.offerIds,
            },
            edges,
          },
        ];
      }),
    );
  },
};
