import type { z } from "zod";
import type { DomainContext } from "../context.ts";
import { validationError } from "../../core/errors.ts";
import { zodIssues } from "../../core/zod-issues.ts";

export type CsvValue = string | number | boolean | null;
export type CsvBatches = AsyncGenerator<Record<string, CsvValue>[]>;

/**
 * A report's CSV export as its file declares it: the query schema, the columns in order, a file
 * name, and the rows as batches read through a cursor (server/db/report-queries.ts), so a
 * transport writes each batch before the next is read.
 */
export type CsvExportSpec<Q> = {
  key: string;
  query: z.ZodType<Q>;
  columns: readonly string[];
  filename: (query: Q) => string;
  rows: (ctx: DomainContext, query: Q) => CsvBatches;
};

/** An export ready to run: its query parsed and checked. */
export type PreparedExport = {
  filename: string;
  columns: readonly string[];
  rows: (ctx: DomainContext) => CsvBatches;
};

export type CsvExport = { key: string; prepare: (query: unknown) => PreparedExport };

/** Wraps a report's export so callers that know only its key (report-catalog.ts) can run it. */
export function csvExport<Q>(spec: CsvExportSpec<Q>): CsvExport {
  return {
    key: spec.key,
    prepare(raw) {
      const parsed = spec.query.safeParse(raw);
      if (!parsed.success) {
        const issues = zodIssues(parsed.error, "query");
        throw validationError(
          `Invalid query: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
          issues,
        );
      }
      const query = parsed.data;
      return {
        filename: spec.filename(query),
        columns: spec.columns,
        rows: (ctx) => spec.rows(ctx, query),
      };
    },
  };
}
