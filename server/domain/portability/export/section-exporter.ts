import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { ReferenceKind, SectionName } from "../snapshot/sections.ts";
import type { PortableItems } from "../snapshot/snapshot-items.schemas.ts";

/** A link from an exported item to another record, by the record's source id. */
export type Edge = { field: string; kind: ReferenceKind; id: string };

/**
 * An exported item, the records it refers to (`edges`: its references, followed by
 * `includeDependencies` and listed in the references map) and the records that go with it without
 * being referred to (`companions`: followed by `includeDependencies` only; a product's monitored
 * assets, without which an imported product and its offers would not meter).
 */
export type ExportedItem<S extends SectionName> = {
  item: PortableItems[S];
  edges: Edge[];
  companions?: Edge[];
};

/**
 * How one section is read for export (and, on import, how a matched target record is read for
 * comparison): the ids mode `All` selects, and the portable items of given ids. `read` returns
 * only ids that name an exportable record; the others are left out.
 */
export type SectionExporter<S extends SectionName> = {
  allIds(db: TenantDbOrTx): Promise<string[]>;
  read(db: TenantDbOrTx, ids: readonly string[]): Promise<Map<string, ExportedItem<S>>>;
};

/** Edges to a record's tags (tags are written on records by name; the registry row is the reference). */
export const tagEdges = (tags: readonly { id: string }[]): Edge[] =>
  tags.map((t) => ({ field: "tags", kind: "Tag" as const, id: t.id }));

/** Ids per query: well under PostgreSQL's 65,535 bind parameters, whatever else a query binds. */
const READ_CHUNK = 5_000;

/** `read` in chunks of ids, for sections of tens of thousands of records. */
export async function readAll<S extends SectionName>(
  exporter: SectionExporter<S>,
  db: TenantDbOrTx,
  ids: readonly string[],
): Promise<Map<string, ExportedItem<S>>> {
  const result = new Map<string, ExportedItem<S>>();
  for (let i = 0; i < ids.length; i += READ_CHUNK)
    for (const [id, item] of await exporter.read(db, ids.slice(i, i + READ_CHUNK))) result.set(id, item);
  return result;
}
