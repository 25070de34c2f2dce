import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { AppError } from "../../../core/errors.ts";
import { sectionNames, sectionOfKind, type Presence, type SectionName } from "../snapshot/sections.ts";
import { sectionExporters } from "./section-exporters.ts";
import { readAll, type ExportedItem, type SectionExporter } from "./section-exporter.ts";
import type { ExportSelection } from "./export-selection.ts";

export type ClosedSelection = {
  items: { [S in SectionName]: Map<string, ExportedItem<S>> };
  presence: Map<string, Presence>;
};

/**
 * The items of the export: the selection, and with `includeDependencies` everything it needs,
 * transitively (docs/api.md: an add-on needs its plan set, which needs its product; a plan set pulls
 * in its suite; features pull in their catalog entries; monitored assets their products; and a
 * product its monitored assets, so an imported product or offer meters as it did). Reads
 * in rounds, one query batch per section and round. An id the request names that is not an
 * exportable record of its section is a 404.
 */
export async function closeSelection(
  db: TenantDbOrTx,
  selection: ExportSelection,
  includeDependencies: boolean,
): Promise<ClosedSelection> {
  const items = Object.fromEntries(sectionNames.map((s) => [s, new Map()])) as ClosedSelection["items"];
  const presence = new Map<string, Presence>();
  const attempted = new Set<string>();
  let pending = new Map<SectionName, Set<string>>();
  for (const [section, ids] of selection) {
    pending.set(section, new Set(ids));
    for (const id of ids) presence.set(id, "Explicit");
  }

  const unknown: string[] = [];
  let firstRound = true;
  while ([...pending.values()].some((ids) => ids.size > 0)) {
    const next = new Map<SectionName, Set<string>>();
    for (const section of sectionNames) {
      const ids = [...(pending.get(section) ?? [])].filter((id) => !attempted.has(`${section}:${id}`));
      if (!ids.length) continue;
      ids.forEach((id) => attempted.add(`${section}:${id}`));
      const read = await readAll(sectionExporters[section] as SectionExporter<SectionName>, db, ids);
      if (firstRound) unknown.push(...ids.filter((id) => !read.has(id)).map((id) => `${section}:${id}`));
      for (const [id, exported] of read) {
        (items[section] as Map<string, ExportedItem<SectionName>>).set(id, exported);
        if (!includeDependencies) continue;
        for (const edge of [...exported.edges, ...(exported.companions ?? [])]) {
          const target = sectionOfKind[edge.kind];
          if (!target || presence.has(edge.id) || attempted.has(`${target}:${edge.id}`)) continue;
          presence.set(edge.id, "Dependency");
          if (!next.has(target)) next.set(target, new Set());
          next.get(target)!.add(edge.id);
        }
      }
    }
    if (firstRound && unknown.length)
      throw new AppError("license.not_found", `Selected ids not found: ${unknown.join(", ")}.`, {
        issues: unknown.map((u) => {
          const [section, id] = u.split(":");
          return { path: `${section}.ids`, message: `No exportable ${section} record has id ${id}.` };
        }),
      });
    firstRound = false;
    pending = next;
  }
  // A dependency that could not be read (deleted since it was referenced) is not in the file.
  for (const [id, p] of presence)
    if (p === "Dependency" && !sectionNames.some((s) => items[s].has(id))) presence.delete(id);
  return { items, presence };
}
