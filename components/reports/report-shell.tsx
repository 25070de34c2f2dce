"use client";

import type { ReactNode } from "react";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { CsvDownload, ReportFilters, type ReportFilterState } from "./report-filters";

/**
 * What every report screen shares: the period (and interval) filters, the CSV download of the same
 * query, the server's problem when it refuses, and the report once loaded (dimmed while a new
 * period loads).
 */
export function ReportShell<T>({
  report,
  filters,
  onFiltersChange,
  series,
  query,
  result,
  children,
}: {
  report: string;
  filters: ReportFilterState;
  onFiltersChange: (next: ReportFilterState) => void;
  series: boolean;
  query: Record<string, string>;
  result: { data: T | undefined; error: unknown; isFetching: boolean; isLoading: boolean };
  children: (data: T) => ReactNode;
}) {
  return (
    <>
      <div className="toolbar">
        <ReportFilters value={filters} onChange={onFiltersChange} series={series} />
        <span className="toolbar-spacer" />
        <CsvDownload report={report} query={query} />
      </div>
      {result.error ? <ProblemAlert problem={problemFrom(result.error)} /> : null}
      {result.data ? (
        <div aria-busy={result.isFetching}>{children(result.data)}</div>
      ) : result.isLoading ? (
        <p className="muted">Loading…</p>
      ) : null}
    </>
  );
}

/** A table's single row when it has nothing to list. */
export function EmptyRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="table-empty">
        {children}
      </td>
    </tr>
  );
}
