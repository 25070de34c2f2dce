import type { Edge, SectionExporter } from "./section-exporter.ts";

/** Suites, implicit ones included (a plan set of a single product belongs to one), members in sell order. */
export const suitesExporter: SectionExporter<"suites"> = {
  async allIds(db) {
    const rows = await db.suite.findMany({ select: { id: true } });
    return rows.map((r) => r.id);
  },
  async read(db, ids) {
    const rows = await db.suite.findMany({
      where: { id: { in: [...ids] } },
      include: { members: { orderBy: [{ sortOrder: "asc" }, { createdAt: "asc" }] } },
    });
    return new Map(
      rows.map((row) => {
        const edges: Edge[] = row.members.map((m) => ({
          field: "members",
          kind: "Product" as const,
          id: m.productId,
        }));
        if (row.implicitProductId)
          edges.push({ field: "implicitProductId", kind: "Product", id: row.implicitProductId });
        return [
          row.id,
          {
            item: {
              id: row.id,
              code: row.code,
              name: row.name,
              description: row.description,
              isImplicit: row.isImplicit,
              implicitProductId: row.implicitProductId,
              members: row.members.map((m) => ({ productId: m.productId, sortOrder: m.sortOrder })),
            },
            edges,
          },
        ];
      }),
    );
  },
};
