"use client";

import type { CSSProperties, ReactNode } from "react";
import { DataTable, Pager, type Column } from "./data-table";
import type { ListFilters, ListView } from "./use-list-state";
import "./list-controls.css";

type Keys<F, V> = { [K in keyof F]: F[K] extends V ? K : never }[keyof F] & string;

/**
 * A text filter of a list: applied when typing pauses, or on every change when `immediate` (an id
 * box whose filter applies only to a whole id).
 */
export function SearchFilter<F extends ListFilters>({
  view,
  name,
  label,
  placeholder,
  title,
  style,
  immediate = false,
  showLabel = false,
}: {
  view: ListView<F>;
  name: Keys<F, string>;
  label: string;
  placeholder: string;
  title?: string;
  style?: CSSProperties;
  immediate?: boolean;
  /** The label above the box, as the pickers show theirs, for a toolbar that mixes the two. */
  showLabel?: boolean;
}) {
  const input = (
    <input
      type="search"
      style={style}
      aria-label={showLabel ? undefined : label}
      placeholder={placeholder}
      title={title}
      value={view.values[name] as string}
      onChange={(e) =>
        immediate ? view.set(name, e.target.value as F[typeof name]) : view.type(name, e.target.value)
      }
    />
  );
  return showLabel ? <LabelledFilter label={label}>{input}</LabelledFilter> : input;
}

/** A filter control with its label shown above it (the label names the control). */
function LabelledFilter({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="filter-field">
      <span className="filter-label">{label}</span>
      {children}
    </label>
  );
}

/** A choice filter of a list; `any` labels the empty choice, listed first. */
export function SelectFilter<F extends ListFilters>({
  view,
  name,
  label,
  any,
  options,
  showLabel = false,
}: {
  view: ListView<F>;
  name: Keys<F, string>;
  label: string;
  any?: string;
  /** Values, or `[value, label]` pairs. */
  options: readonly (string | readonly [string, string])[];
  /** The label above the choice, as the pickers show theirs, for a toolbar that mixes the two. */
  showLabel?: boolean;
}) {
  const choices = [...(any === undefined ? [] : [["", any] as const]), ...options];
  const select = (
    <select
      aria-label={showLabel ? undefined : label}
      value={view.values[name] as string}
      onChange={(e) => view.set(name, e.target.value as F[typeof name])}
    >
      {choices.map((option) => {
        const [value, text] = typeof option === "string" ? [option, option] : option;
        return (
          <option key={value} value={value}>
            {text}
          </option>
        );
      })}
    </select>
  );
  return showLabel ? <LabelledFilter label={label}>{select}</LabelledFilter> : select;
}

/** A yes/no filter of a list. */
export function CheckboxFilter<F extends ListFilters>({
  view,
  name,
  children,
}: {
  view: ListView<F>;
  name: Keys<F, boolean>;
  children: ReactNode;
}) {
  return (
    <label className="checkbox">
      <input
        type="checkbox"
        checked={view.values[name] as boolean}
        onChange={(e) => view.set(name, e.target.checked as F[typeof name])}
      />
      {children}
    </label>
  );
}

/** A page of a list as a sortable table, with its pager. */
export function ListTable<T, F extends ListFilters>({
  view,
  list,
  ...table
}: {
  view: ListView<F>;
  list: {
    data?: {
      items: T[];
      pageNumber: number;
      totalPages: number;
      totalCount: number;
      hasNextPage: boolean;
      hasPreviousPage: boolean;
    };
    isLoading: boolean;
    /** Rows of the previous query, shown while this one loads (`keepPreviousData`). */
    isPlaceholderData?: boolean;
  };
  caption: string;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  rowClassName?: (row: T) => string | undefined;
  empty: ReactNode;
}) {
  // Busy until the rows answer the filters the controls show: a first load, a typed filter not
  // yet applied, or the previous filter's rows kept while the new ones load.
  const busy = list.isLoading || Boolean(list.isPlaceholderData) || view.pending;
  return (
    <>
      <DataTable
        {...table}
        rows={list.data?.items ?? []}
        sort={view.sort}
        onSort={view.onSort}
        loading={busy}
      />
      <Pager page={list.data} onPage={view.setPageNumber} busy={busy} />
    </>
  );
}
