import type { DomainContext } from "../../context.ts";
import { inTransaction, joinable, type TenantTx } from "../../../db/tenant-db.ts";
import { AppError } from "../../../core/errors.ts";
import { isTransactionConflict } from "../../../db/errors.ts";
import { checkFormatVersion } from "../snapshot/format-version.ts";
import { readSnapshotFile, type SnapshotFile } from "../snapshot/snapshot-file.ts";
import { runImport } from "./import-runner.ts";
import { assertImportWithinLimits, IMPORT_TIME_LIMIT_MS } from "./import-limits.ts";
import type { ImportProgress } from "./import-run.ts";
import type {
  TCatalogImportBody,
  TCatalogImportResult,
  TImportOptions,
} from "../snapshot/snapshot.schemas.ts";

export { IMPORT_TIME_LIMIT_MS, STREAMED_IMPORT_TIME_LIMIT_MS } from "./import-limits.ts";

class DryRunRollback extends Error {
  constructor(readonly result: TCatalogImportResult) {
    super("dry run rolled back");
  }
}

type Savepointed = { $transaction<T>(fn: (tx: TenantTx) => Promise<T>): Promise<T> };

/** Prisma's "transaction already closed / expired" (P2028): the import outran its time limit. */
const isExpiredTransaction = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2028";

/**
 * Reads an import body: refuses a snapshot of a major formatVersion this service does not read
 * (400 `catalog.unsupported_format_version`, before anything else is read), then the references,
 * the items and the selective-apply keys, then a file with more items to apply than one import
 * takes (413 `catalog.import_too_large`, import-limits.ts).
 */
export function readImportFile(body: TCatalogImportBody): SnapshotFile {
  checkFormatVersion(body.formatVersion);
  const file = readSnapshotFile(body);
  assertImportWithinLimits(file);
  return file;
}

/**
 * POST /admin/catalog/import (docs/api.md). The whole import runs in one transaction, every item in a
 * savepoint of it; with `dryRun` the transaction is rolled back at the end (a savepoint, so a
 * caller's transaction is left as it was), so the result reports exactly what applying would do,
 * skips from the real constraint checks included. Nothing is ever removed; an existing product's
 * features and monitored assets are never overwritten.
 */
export async function importCatalog(
  ctx: DomainContext,
  body: TCatalogImportBody,
  options: TImportOptions,
  run: { onProgress?: (progress: ImportProgress) => void; timeLimitMs?: number } = {},
): Promise<TCatalogImportResult> {
  return applyImportFile(ctx, readImportFile(body), options, run);
}

/** Runs an import of a file `readImportFile` has read (the back office reads it before streaming). */
export async function applyImportFile(
  ctx: DomainContext,
  file: SnapshotFile,
  options: TImportOptions,
  run: { onProgress?: (progress: ImportProgress) => void; timeLimitMs?: number } = {},
): Promise<TCatalogImportResult> {
  const timeLimitMs = run.timeLimitMs ?? IMPORT_TIME_LIMIT_MS;
  try {
    return await inTransaction(
      ctx.db,
      async (tx) => {
        try {
          return await (tx as unknown as Savepointed).$transaction(async (sp) => {
            const result = await runImport({ ...ctx, db: joinable(sp) }, file, options, run.onProgress);
            if (options.dryRun) throw new DryRunRollback(result);
            return result;
          });
        } catch (error) {
          if (error instanceof DryRunRollback) return error.result;
          throw error;
        }
      },
      { timeoutMs: timeLimitMs },
    );
  } catch (error) {
    if (isTransactionConflict(error))
      throw new AppError(
        "license.conflict",
        "The import collided with another change of this tenant's catalog (PostgreSQL chose it as a deadlock or serialization victim) and was rolled back; nothing changed. Run it again.",
      );
    if (isExpiredTransaction(error))
      throw new AppError(
        "catalog.import_too_large",
        `The import did not finish within ${timeLimitMs / 1000} s and was rolled back; nothing changed. Import the file in parts (selective apply, or an export of fewer sections).`,
      );
    throw error;
  }
}
