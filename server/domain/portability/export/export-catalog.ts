import type { DomainContext } from "../../context.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { now } from "../../../clock.ts";
import { kindOfSection, sectionNames, type SectionName } from "../snapshot/sections.ts";
import { CATALOG_FORMAT_VERSION } from "../snapshot/format-version.ts";
import { resolveSelection } from "./export-selection.ts";
import { closeSelection } from "./dependency-closure.ts";
import { buildReferenceMap } from "./reference-map.ts";
import { matchKey } from "../snapshot/natural-keys.ts";
import type {
  TCatalogExportRequest,
  TCatalogSnapshot,
  TSnapshotSections,
} from "../snapshot/snapshot.schemas.ts";

/** An export reads a large catalog in one consistent snapshot; this bounds the read. */
export const EXPORT_TIME_LIMIT_MS = 120_000;

/**
 * POST /admin/catalog/export: the selected sections, closed over their dependencies unless a
 * strict slice is asked for, with the references map and warnings (docs/api.md "Catalog snapshot").
 * Reads in one REPEATABLE READ transaction, so the file is a consistent picture of the catalog.
 * Items are ordered by natural key (plan sets by suite and revision), so two exports of equal
 * catalogs are equal files apart from ids and timestamps.
 */
export async function exportCatalog(
  ctx: DomainContext,
  request: TCatalogExportRequest,
): Promise<TCatalogSnapshot> {
  return inTransaction(
    ctx.db,
    async (tx) => {
      // A transaction of our own (not the caller's) can still choose its isolation level.
      if (tx !== ctx.db)
        await tx.$executeRawUnsafe("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
      const selection = await resolveSelection(tx, request);
      const closed = await closeSelection(tx, selection, request.includeDependencies);
      const { references, warnings, keys } = await buildReferenceMap(tx, closed);
      const sortKey = (section: SectionName, id: string) => {
        const key = keys.get(id)?.naturalKey ?? {};
        const version =
          section === "plans"
            ? Number(key.version ?? 0)
                .toString()
                .padStart(9, "0")
            : "";
        return `${matchKey(kindOfSection[section], key)}\u0000${version}\u0000${id}`;
      };
      const sections = Object.fromEntries(
        sectionNames.map((section) => [
          section,
          [...closed.items[section].entries()]
            .map(([id, exported]) => ({ sort: sortKey(section, id), item: exported.item }))
            .sort((a, b) => (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0))
            .map((e) => e.item),
        ]),
      ) as TSnapshotSections;
      const scope = sectionNames.filter((s) => request[s].mode !== "None" || sections[s].length > 0);
      return {
        formatVersion: CATALOG_FORMAT_VERSION,
        exportedAt: now().toISOString(),
        sourceTenantId: ctx.tenantId,
        scope,
        counts: Object.fromEntries(sectionNames.map((s) => [s, sections[s].length])),
        references,
        warnings,
        sections,
      };
    },
    { timeoutMs: EXPORT_TIME_LIMIT_MS },
  );
}
