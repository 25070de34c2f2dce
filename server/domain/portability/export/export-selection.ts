import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { AppError } from "../../../core/errors.ts";
import { sectionNames, type SectionName } from "../snapshot/sections.ts";
import { sectionExporters } from "./section-exporters.ts";
import { selectsSomething, type TCatalogExportRequest } from "../snapshot/snapshot.schemas.ts";

/** What the request selects directly: ids per section (mode `All` expanded). */
export type ExportSelection = Map<SectionName, string[]>;

/** The request's direct selection; 400 `catalog.empty_selection` when it selects nothing. */
export async function resolveSelection(
  db: TenantDbOrTx,
  request: TCatalogExportRequest,
): Promise<ExportSelection> {
  if (!selectsSomething(request))
    throw new AppError(
      "catalog.empty_selection",
      "The export selects nothing: give at least one section mode All, or mode Ids with ids.",
    );
  const selection: ExportSelection = new Map();
  for (const section of sectionNames) {
    const { mode, ids } = request[section];
    if (mode === "All") selection.set(section, await sectionExporters[section].allIds(db));
    else if (mode === "Ids") selection.set(section, [...new Set((ids ?? []).map((id) => id.toLowerCase()))]);
  }
  return selection;
}
