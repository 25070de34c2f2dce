import { z } from "zod";
import { presenceValues, referenceKinds, sectionNames } from "./sections.ts";
import {
  ZPortableAddOn,
  ZPortableFeatureCatalogEntry,
  ZPortableMonitoredAsset,
  ZPortableOffer,
  ZPortablePlanSet,
  ZPortableProduct,
  ZPortableRatingCampaign,
  ZPortableSuite,
  ZPortableTag,
} from "./snapshot-items.schemas.ts";

export const ZSectionName = z.enum(sectionNames);

export const selectionModes = ["None", "All", "Ids"] as const;

/** docs/api.md export selection: `mode`, and `ids` when the mode selects ids. */
export const ZSectionSelection = z
  .strictObject({
    mode: z.enum(selectionModes).default("None"),
    ids: z.array(z.string().uuid()).max(10_000).nullable().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.mode === "Ids" && !v.ids)
      ctx.addIssue({ code: "custom", path: ["ids"], message: "mode Ids needs the ids to export." });
    if (v.mode !== "Ids" && v.ids?.length)
      ctx.addIssue({
        code: "custom",
        path: ["ids"],
        message: `ids are given only with mode Ids (not ${v.mode}).`,
      });
  });
export type TSectionSelection = z.output<typeof ZSectionSelection>;

const noSelection = { mode: "None" as const };

/** POST /admin/catalog/export. A section left out is not exported (mode None). */
export const ZCatalogExportRequest = z.strictObject({
  tags: ZSectionSelection.default(noSelection),
  products: ZSectionSelection.default(noSelection),
  featureCatalog: ZSectionSelection.default(noSelection),
  monitoredAssets: ZSectionSelection.default(noSelection),
  suites: ZSectionSelection.default(noSelection),
  plans: ZSectionSelection.default(noSelection),
  addOns: ZSectionSelection.default(noSelection),
  entitlementOffers: ZSectionSelection.default(noSelection),
  ratingCampaigns: ZSectionSelection.default(noSelection),
  /** docs/api.md: true (default) includes everything the selection depends on; false takes a strict slice. */
  includeDependencies: z.boolean().default(true),
});
export type TCatalogExportRequest = z.output<typeof ZCatalogExportRequest>;

/** docs/api.md: a request selecting nothing is rejected (every section None, or Ids with no ids). */
export function selectsSomething(request: TCatalogExportRequest): boolean {
  return sectionNames.some((s) => {
    const selection = request[s];
    return selection.mode === "All" || (selection.mode === "Ids" && (selection.ids?.length ?? 0) > 0);
  });
}

/** docs/api.md reference naturalKey: the fields relevant to the kind. */
export const ZNaturalKey = z.object({
  productCode: z.string().optional(),
  productVersion: z.string().optional(),
  featureCode: z.string().optional(),
  metricName: z.string().optional(),
  code: z.string().optional(),
  name: z.string().optional(),
  version: z.string().optional(),
  scope: z.string().optional(),
});
export type TNaturalKey = z.output<typeof ZNaturalKey>;

export const ZReference = z.object({
  kind: z.enum(referenceKinds),
  naturalKey: ZNaturalKey,
  presence: z.enum(presenceValues),
  /** Provenance `section/businessKey.field`; empty when the id was selected directly. */
  referencedBy: z.array(z.string()).default([]),
});
export type TReference = z.output<typeof ZReference>;

export const ZSnapshotWarning = z.object({ code: z.string(), key: z.string(), message: z.string() });
export type TSnapshotWarning = z.output<typeof ZSnapshotWarning>;

export const ZSnapshotSections = z.object({
  tags: z.array(ZPortableTag),
  products: z.array(ZPortableProduct),
  featureCatalog: z.array(ZPortableFeatureCatalogEntry),
  monitoredAssets: z.array(ZPortableMonitoredAsset),
  suites: z.array(ZPortableSuite),
  plans: z.array(ZPortablePlanSet),
  addOns: z.array(ZPortableAddOn),
  entitlementOffers: z.array(ZPortableOffer),
  ratingCampaigns: z.array(ZPortableRatingCampaign),
});
export type TSnapshotSections = z.output<typeof ZSnapshotSections>;

/** docs/api.md "Catalog snapshot (export envelope)". */
export const ZCatalogSnapshot = z.object({
  formatVersion: z.string().describe("Semantic version of the format; its major component gates import."),
  exportedAt: z.string(),
  sourceTenantId: z.string(),
  /** Sections the export covered: selected ones and those dependencies filled. */
  scope: z.array(ZSectionName),
  counts: z.record(z.string(), z.number().int()),
  references: z.record(z.string(), ZReference),
  warnings: z.array(ZSnapshotWarning),
  sections: ZSnapshotSections,
});
export type TCatalogSnapshot = z.output<typeof ZCatalogSnapshot>;

export const conflictModes = ["CreateOrUpdate", "CreateOnly", "UpdateOnly"] as const;
export type TConflictMode = (typeof conflictModes)[number];

const ZQueryBoolean = z
  .enum(["true", "false"])
  .optional()
  .transform((v) => v === "true");

/** POST /admin/catalog/import query (docs/api.md), plus `compare` (our decision, docs/decisions.md). */
export const ZCatalogImportQuery = z.object({
  dryRun: ZQueryBoolean.describe("true: the whole import runs in a transaction that is rolled back."),
  conflictMode: z
    .enum(conflictModes)
    .default("CreateOrUpdate")
    .describe("What to do with items that exist in the target (matched by natural key) or do not."),
  compare: ZQueryBoolean.describe(
    "true: fill each section's onlyInTarget and each matched item's changes (field, current, incoming, isDifferent).",
  ),
});

/**
 * Selective apply (our decision): section name → business keys to apply (`code@version` for
 * products, `code` for add-ons and suites, `name` for plan sets, offers and rating campaigns,
 * `featureCode`, `Scope:name` for tags, `code@version/metricName` for monitored assets). Every
 * other item of the file is skipped with a reason; a section left out of the map applies nothing.
 */
export const ZApplyKeyMap = z.partialRecord(ZSectionName, z.array(z.string().min(1).max(500)).max(100_000));
export type TApplyKeyMap = z.output<typeof ZApplyKeyMap>;

/**
 * The import body: a catalog snapshot as exported, plus the optional `apply` map. Read leniently
 * here so that a snapshot of an unknown major formatVersion is refused with
 * `catalog.unsupported_format_version` before anything else is read; the sections' items are then
 * read one by one (an invalid item is skipped with its problems as the reason).
 */
export const ZCatalogImportBody = z.looseObject({
  formatVersion: z.string().min(1).max(50),
  exportedAt: z.string().optional(),
  sourceTenantId: z.string().optional(),
  scope: z.array(z.string()).optional(),
  counts: z.record(z.string(), z.unknown()).optional(),
  references: z.record(z.string(), z.unknown()).optional(),
  warnings: z.array(z.unknown()).optional(),
  sections: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("The snapshot's sections (see the export response): arrays of items by section name."),
  apply: ZApplyKeyMap.optional().describe(
    "Selective apply: section name → business keys to apply; every other item is skipped.",
  ),
});
export type TCatalogImportBody = z.output<typeof ZCatalogImportBody>;

export const importActions = ["Created", "Updated", "Skipped", "Unknown"] as const;
export type TImportAction = (typeof importActions)[number];

export const ZItemChange = z.object({
  field: z.string(),
  current: z.unknown(),
  incoming: z.unknown(),
  /** false: the file restates a value the target already holds. */
  isDifferent: z.boolean(),
});
export type TItemChange = z.output<typeof ZItemChange>;

export const ZImportItemResult = z.object({
  key: z.string(),
  sourceId: z.string().nullable(),
  action: z.enum(importActions),
  reason: z.string().nullable(),
  changes: z.array(ZItemChange),
});
export type TImportItemResult = z.output<typeof ZImportItemResult>;

export const ZImportSectionResult = z.object({
  section: ZSectionName,
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  unusableMetricNames: z.array(z.string()),
  onlyInTarget: z.array(z.string()),
  items: z.array(ZImportItemResult),
});
export type TImportSectionResult = z.output<typeof ZImportSectionResult>;

/** docs/api.md "Catalog import result". */
export const ZCatalogImportResult = z.object({
  dryRun: z.boolean(),
  conflictMode: z.enum(conflictModes),
  formatVersion: z.string(),
  sections: z.array(ZImportSectionResult),
  /** Deprecated (1.x): the products section result again; an empty one when the file had none. */
  products: ZImportSectionResult,
});
export type TCatalogImportResult = z.output<typeof ZCatalogImportResult>;

export type TImportOptions = {
  dryRun: boolean;
  conflictMode: TConflictMode;
  compare: boolean;
};
