import { z } from "zod";
import { router, staffProcedure } from "../../init.ts";
import { ZPage } from "../../../core/pagination.ts";
import {
  conflictModes,
  ZCatalogExportRequest,
  ZCatalogImportBody,
  ZCatalogSnapshot,
  type TCatalogImportResult,
} from "../../../domain/portability/snapshot/snapshot.schemas.ts";
import type { ImportProgress } from "../../../domain/portability/import/import-run.ts";
import { exportCatalog } from "../../../domain/portability/export/export-catalog.ts";
import {
  applyImportFile,
  readImportFile,
  STREAMED_IMPORT_TIME_LIMIT_MS,
} from "../../../domain/portability/import/import-catalog.ts";
import {
  listExportCandidates,
  ZExportCandidate,
  ZExportCandidatesQuery,
} from "../../../domain/portability/export/list-export-candidates.ts";
import { withProgress } from "./progress-stream.ts";

export const ZCatalogImportInput = z.object({
  snapshot: ZCatalogImportBody,
  dryRun: z.boolean().default(true),
  conflictMode: z.enum(conflictModes).default("CreateOrUpdate"),
  compare: z.boolean().default(false),
});

/** The back office's export wizard and import page (the REST routes' domain functions). */
export const catalogTransferRouter = router({
  candidates: staffProcedure("catalog")
    .input(ZExportCandidatesQuery)
    .output(ZPage(ZExportCandidate))
    .query(({ ctx, input }) => listExportCandidates(ctx.domain, input)),

  export: staffProcedure("catalog", "read")
    .input(ZCatalogExportRequest)
    .output(ZCatalogSnapshot)
    .mutation(({ ctx, input }) => exportCatalog(ctx.domain, input)),

  /** Streams progress, then the import result (or the refusal that stopped it). Use httpBatchStreamLink. */
  import: staffProcedure("catalog")
    .input(ZCatalogImportInput)
    .mutation(({ ctx, input }) => {
      const file = readImportFile(input.snapshot);
      const { dryRun, conflictMode, compare } = input;
      return withProgress<ImportProgress, TCatalogImportResult>(
        (onProgress) =>
          applyImportFile(
            ctx.domain,
            file,
            { dryRun, conflictMode, compare },
            {
              onProgress,
              timeLimitMs: STREAMED_IMPORT_TIME_LIMIT_MS,
            },
          ),
        { instance: "/api/trpc/catalogTransfer.import", phase: (p) => p.section },
      );
    }),
});
