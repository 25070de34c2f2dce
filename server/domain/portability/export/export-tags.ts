import type { SectionExporter } from "./section-exporter.ts";

/** Tags: the live tags of the tenant's registry (docs/api.md section fields id, scope, name, color). */
export const tagsExporter: SectionExporter<"tags"> = {
  async allIds(db) {
    const rows = await db.tag.findMany({ where: { isDeleted: false }, select: { id: true } });
    return rows.map((r) => r.id);
  },
  async read(db, ids) {
    const rows = await db.tag.findMany({ where: { id: { in: [...ids] }, isDeleted: false } });
    return new Map(
      rows.map((row) => [
        row.id,
        { item: { id: row.id, scope: row.scope, name: row.name, color: row.color }, edges: [] },
      ]),
    );
  },
};
