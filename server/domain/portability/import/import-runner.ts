import type { DomainContext } from "../../context.ts";
import { kindOfSection, type SectionName } from "../snapshot/sections.ts";
import { emptySectionResult, ImportRun, type ImportProgress } from "./import-run.ts";
import { importSection } from "./import-section.ts";
import { sectionImporters } from "./section-importers.ts";
import { attachProductFeatures, finishFeatureLifecycles, lockProducts } from "./import-product-phases.ts";
import { fillUnusableMetricNames } from "./unusable-metrics.ts";
import { businessKey } from "../snapshot/natural-keys.ts";
import type { SnapshotFile } from "../snapshot/snapshot-file.ts";
import type {
  TCatalogImportResult,
  TImportOptions,
  TImportSectionResult,
} from "../snapshot/snapshot.schemas.ts";

const lastOf = (sections: readonly SectionName[], among: readonly SectionName[]) =>
  [...sections].reverse().find((s) => among.includes(s));

/**
 * Runs an import inside the caller's (import) transaction: the file's sections in dependency
 * order, each reference remapped to the target through the records created or matched before it.
 * A product's features are attached once both products and catalog entries are in; the products
 * the file has locked are locked once their monitored assets are in.
 */
export async function runImport(
  ctx: DomainContext,
  file: SnapshotFile,
  options: TImportOptions,
  onProgress?: (progress: ImportProgress) => void,
): Promise<TCatalogImportResult> {
  const run = new ImportRun(ctx, file, options, onProgress);
  const featuresAfter = lastOf(file.sections, ["products", "featureCatalog"]);
  const locksAfter = lastOf(file.sections, ["products", "featureCatalog", "monitoredAssets"]);
  for (const section of file.sections) {
    await importSection(run, sectionImporters[section] as never);
    if (section === featuresAfter) {
      await attachProductFeatures(run);
      await finishFeatureLifecycles(run);
    }
    if (section === locksAfter) await lockProducts(run);
  }
  await fillUnusableMetricNames(run);
  if (options.compare) {
    for (const section of file.sections) {
      const kind = kindOfSection[section];
      const matched = run.matched.get(section) ?? new Set();
      const others = (await run.index.all(kind)).filter((r) => !matched.has(r.id));
      run.section(section).onlyInTarget = [
        ...new Set(others.map((r) => businessKey(kind, r.naturalKey))),
      ].sort();
    }
  }
  const sections: TImportSectionResult[] = file.sections.map((section) => {
    const { items, ...counts } = run.section(section);
    return { ...counts, items: items.map(({ notes: _notes, ...item }) => item) };
  });
  const products = sections.find((s) => s.section === "products") ?? emptySectionResult("products");
  return {
    dryRun: options.dryRun,
    conflictMode: options.conflictMode,
    formatVersion: file.formatVersion,
    sections,
    products,
  };
}
