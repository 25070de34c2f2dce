import type { TUsageTier } from "../../catalog/monitored-assets/usage-tier.schemas.ts";
import type { Edge, SectionExporter } from "./section-exporter.ts";
import { codeEdges } from "./export-plan-sets.ts";
import { featuresByIds } from "../../catalog/pricing-lookups.ts";

/**
 * Add-ons. docs/api.md: an add-on needs its plan set. Here an add-on belongs to a suite and its
 * planTargets name plans, so it depends on its suite and on the suite's revisions that are not
 * archived (the plans it is written against), and on the catalog entries it grants.
 */
export const addOnsExporter: SectionExporter<"addOns"> = {
  async allIds(db) {
    const rows = await db.addOn.findMany({ select: { id: true } });
    return rows.map((r) => r.id);
  },
  async read(db, ids) {
    const rows = await db.addOn.findMany({
      where: { id: { in: [...ids] } },
      include: {
        featureValues: { orderBy: [{ sortOrder: "asc" }, { id: "asc" }] },
        suite: {
          select: {
            members: { select: { productId: true } },
            planSets: { where: { status: { not: "Archived" } }, select: { id: true } },
          },
        },
      },
    });
    const entries = await featuresByIds(
      db,
      rows.flatMap((r) => r.featureCatalogIds),
    );
    const result = new Map();
    for (const row of rows) {
      const memberIds = row.suite.members.map((m) => m.productId);
      const values = row.featureValues.map((v) => ({
        featureCode: v.featureCode,
        value: v.value,
        usageTiers: (Array.isArray(v.usageTiers) ? v.usageTiers : []) as unknown as TUsageTier[],
        planTargets: v.planTargets,
        operation: v.operation,
      }));
      const edges: Edge[] = [
        { field: "suiteId", kind: "Suite", id: row.suiteId },
        ...row.suite.planSets.map((p) => ({ field: "planSets", kind: "PlanSet" as const, id: p.id })),
        ...row.featureCatalogIds.map((id) => ({
          field: "features",
          kind: "FeatureCatalogEntry" as const,
          id,
        })),
        ...(
          await codeEdges(
            db,
            values.map((v) => ({
              field: "featureValues",
              featureCode: v.featureCode,
              usageTiers: v.usageTiers,
              productIds: memberIds,
            })),
          )
        ).flat(),
      ];
      result.set(row.id, {
        item: {
          id: row.id,
          suiteId: row.suiteId,
          code: row.code,
          name: row.name,
          description: row.description,
          status: row.status,
          features: row.featureCatalogIds.map((id) => {
            const entry = entries.get(id);
            return {
              featureCatalogId: id,
              featureCode: entry?.featureCode ?? null,
              name: entry?.name ?? null,
              featureType: entry?.featureType ?? null,
              units: entry?.units ?? null,
            };
          }),
          featureValues: values,
          // docs/api.md: null where not computed, such as in a catalog export.
          referencedBy: null,
        },
        edges,
      });
    }
    return result;
  },
};
