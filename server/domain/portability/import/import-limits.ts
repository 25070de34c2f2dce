import { AppError } from "../../../core/errors.ts";
import type { SnapshotFile } from "../snapshot/snapshot-file.ts";

/**
 * The bounds of one catalog import (docs/decisions.md "Catalog import limits"):
 * an import is one transaction, so its size and its time are bounded, each refusal a clear 413
 * `catalog.import_too_large` with nothing changed. A larger catalog goes in parts (fewer sections,
 * selected ids, or selective apply), each its own transaction.
 */
export const MAX_IMPORT_ITEMS = 5_000;
/** REST: well under the 5-minute header timeout of common HTTP clients. */
export const IMPORT_TIME_LIMIT_MS = 120_000;
/** The back office streams progress, but holds the same transaction: the same bound. */
export const STREAMED_IMPORT_TIME_LIMIT_MS = 120_000;
export const CATALOG_IMPORT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The items an import will apply: every item, or with selective apply only the selected ones. */
export function itemsToApply(file: SnapshotFile): number {
  if (!file.apply) return file.total;
  let count = 0;
  for (const [section, keys] of file.apply)
    count += file.items[section].filter((i) => keys.has(i.key)).length;
  return count;
}

/** Refuses a file with more items to apply than one import takes, before any transaction. */
export function assertImportWithinLimits(file: SnapshotFile): void {
  const count = itemsToApply(file);
  if (count > MAX_IMPORT_ITEMS)
    throw new AppError(
      "catalog.import_too_large",
      `The import would apply ${count} items; one import applies at most ${MAX_IMPORT_ITEMS}. Nothing changed. Import the file in parts: an export of fewer sections or ids, or selective apply (\`apply\`) of at most ${MAX_IMPORT_ITEMS} items per import.`,
    );
}
