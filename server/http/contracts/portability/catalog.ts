import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZCatalogExportRequest,
  ZCatalogImportBody,
  ZCatalogImportQuery,
  ZCatalogImportResult,
  ZCatalogSnapshot,
} from "../../../domain/portability/snapshot/snapshot.schemas.ts";
// A catalog of thousands of products with their features exceeds the default body limit.
import { CATALOG_IMPORT_MAX_BODY_BYTES } from "../../../domain/portability/import/import-limits.ts";

const tag = "Catalog export and import";
const common = ["auth.unauthenticated", "auth.insufficient_scope", "idempotency.key_reused"] as const;

export const exportCatalogContract = defineContract({
  method: "POST",
  path: "/api/v1/provision/admin/catalog/export",
  tag,
  summary: "Export a catalog snapshot of the selected sections",
  description:
    "One selection per section (`mode` None, All or Ids with `ids`); a request selecting nothing is refused " +
    "(catalog.empty_selection). With `includeDependencies` (default true) everything the selection needs is " +
    "included: an add-on's suite and its suite's plan sets, a plan set's suite, products and catalog entries, a " +
    "product's catalog entries and parent, an asset's product, an offer's products, plan set and add-ons, a " +
    "campaign's entries and offers; false takes a strict slice. `references` has an entry for every id in the " +
    "file and every id it refers to: presence Explicit (selected), Dependency (pulled in), Excluded (exists but " +
    "not in the file) or Missing (no longer exists). Reads only: the scope is provision.catalog.read.",
  auth: clientScope("catalog", "read"),
  body: ZCatalogExportRequest,
  response: ZCatalogSnapshot,
  errors: [...common, "license.validation_error", "license.not_found", "catalog.empty_selection"],
});

export const importCatalogContract = defineContract({
  method: "POST",
  path: "/api/v1/provision/admin/catalog/import",
  tag,
  summary: "Import a catalog snapshot (dry run, conflict mode, comparison, selective apply)",
  description:
    "The body is a snapshot as the export returns it. Items are matched by natural key (ids differ between " +
    "tenants) and sections are processed in dependency order with every reference remapped. `dryRun=true` runs " +
    "the whole import in a transaction that is rolled back. `conflictMode`: CreateOrUpdate (default), CreateOnly " +
    "(matched items are skipped), UpdateOnly (unmatched items are skipped). An import never removes anything and " +
    "never overwrites an existing product's features or monitored assets. Comparison: query `compare=true` fills " +
    "each section's `onlyInTarget` and each matched item's `changes`. Selective apply: body field `apply`, a map " +
    "from section name to the business keys to apply (products `code@version`, add-ons and suites `code`, plan " +
    "sets, offers and rating campaigns `name`, feature catalog `featureCode`, tags `Scope:name`, monitored assets " +
    "`code@version/metricName`); every other item is skipped with a reason, and a key naming no item of the file " +
    "is refused (catalog.unknown_apply_keys). A snapshot of another major formatVersion is refused " +
    "(catalog.unsupported_format_version). At most 5,000 items to apply (catalog.import_too_large " +
    "before anything runs) and 120 s to finish (catalog.import_too_large otherwise, with nothing changed); with an " +
    "Idempotency-Key it runs inside the idempotency record's 30 s transaction. Bodies up to 16 MiB.",
  auth: clientScope("catalog"),
  query: ZCatalogImportQuery,
  body: ZCatalogImportBody,
  response: ZCatalogImportResult,
  maxBodyBytes: CATALOG_IMPORT_MAX_BODY_BYTES,
  errors: [
    ...common,
    "license.validation_error",
    "request.payload_too_large",
    "catalog.unsupported_format_version",
    "catalog.unknown_apply_keys",
    "catalog.import_too_large",
    "license.conflict",
  ],
});
