"use client";

import type { ReactNode } from "react";
import { pagerStatus } from "./pager-status";

export type SortState = { field: string; descending: boolean } | null;

export type Column<T> = {
  key: string;
  header: string;
  /** The Sieve field this column sorts by; absent = not sortable. */
  sortField?: string;
  align?: "left" | "right";
  render: (row: T) => ReactNode;
};

/** Sieve `sortOrder` for a sort state (`-name` = descending). */
export function sortOrderOf(sort: SortState): string | undefined {
  return sort ? `${sort.descending ? "-" : ""}${sort.field}` : undefined;
}

/** Clicking a column sorts ascending, then descending, then returns to the default order. */
export function nextSort(current: SortState, field: string): SortState {
  if (!current || current.field !== field) return { field, descending: false };
  if (!current.descending) return { field, descending: true };
  return null;
}

export function DataTable<T>({
  columns,
  rows,
  rowKey,
  sort,
  onSort,
  empty,
  loading,
  rowClassName,
  caption,
}: {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  sort?: SortState;
  onSort?: (field: string) => void;
  empty: ReactNode;
  loading?: boolean;
  rowClassName?: (row: T) => string | undefined;
  caption?: string;
}) {
  return (
    <div className="table-wrap" aria-busy={loading || undefined}>
      <table className="table">
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((col) => {
              const active = sort && col.sortField && sort.field === col.sortField;
              return (
                <th
                  key={col.key}
                  scope="col"
                  className={col.align === "right" ? "num" : undefined}
                  aria-sort={active ? (sort.descending ? "descending" : "ascending") : undefined}
                >
                  {col.sortField && onSort ? (
                    <button type="button" className="th-sort" onClick={() => onSort(col.sortField!)}>
                      {col.header}
                      <span className="sort-mark" aria-hidden="true">
                        {active ? (sort.descending ? "▼" : "▲") : "↕"}
                      </span>
                    </button>
                  ) : (
                    col.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="table-empty">
                {loading ? "Loading…" : empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)} className={rowClassName?.(row)}>
                {columns.map((col) => (
                  <td key={col.key} className={col.align === "right" ? "num" : undefined}>
                    {col.render(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Paging controls for the docs/api.md page envelope; none for an empty list. */
export function Pager({
  page,
  onPage,
  busy = false,
}: {
  page:
    | {
        pageNumber: number;
        totalPages: number;
        totalCount: number;
        /** The list stopped counting there (docs/decisions.md "Bounded list counts"). */
        totalCountIsLowerBound?: boolean;
        hasNextPage: boolean;
        hasPreviousPage: boolean;
      }
    | undefined;
  onPage: (pageNumber: number) => void;
  /** While the list is loading or a typed filter is pending (it would send the list back to page 1). */
  busy?: boolean;
}) {
  // An empty list has no pages: its table already says so ("No results"), and "Page 0 of 0" says nothing.
  if (!page || page.totalCount === 0) return null;
  const status = pagerStatus(page);
  return (
    <nav className="pager" aria-label="Pages">
      <button
        type="button"
        className="btn btn-ghost btn-small"
        disabled={busy || !page.hasPreviousPage}
        onClick={() => onPage(page.pageNumber - 1)}
      >
        ‹ Previous
      </button>
      <span className="pager-status">
        {status.pages}
        <span className="muted"> · {status.total}</span>
      </span>
      <button
        type="button"
        className="btn btn-ghost btn-small"
        disabled={busy || !page.hasNextPage}
        onClick={() => onPage(page.pageNumber + 1)}
      >
        Next ›
      </button>
    </nav>
  );
}
