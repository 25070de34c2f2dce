"use client";

import type { ReactNode } from "react";
import type { Column } from "../ui/data-table";
import { ExportCsvLink } from "../operations/export-link";
import { ProblemAlert } from "../ui/problem-alert";
import type { ProblemJson } from "../ui/problem";

/**
 * The frame of a customers list (organizations, users): heading with its CSV export, the problem of
 * the last read or change, the list's filters, the add form, then the list itself.
 */
export function CustomerListPanel({
  id,
  title,
  exportList,
  query,
  pending,
  problem,
  onDismiss,
  filters,
  addForm,
  children,
}: {
  id: string;
  title: string;
  exportList: string;
  query: { filter?: string; sortOrder?: string };
  /** A typed filter not applied yet: the export waits for it. */
  pending: boolean;
  problem: ProblemJson | null;
  onDismiss: () => void;
  filters: ReactNode;
  addForm: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="panel" aria-labelledby={`${id}-heading`}>
      <div className="panel-head">
        <h2 id={`${id}-heading`}>{title}</h2>
        <span className="toolbar-spacer" />
        <ExportCsvLink list={exportList} query={query} pending={pending} />
      </div>
      <ProblemAlert problem={problem} onDismiss={onDismiss} />
      <div className="toolbar">{filters}</div>
      {addForm}
      {children}
    </section>
  );
}

/** The row action of a customers list: remove the row's customer. */
export function removeColumn<T extends { id: string }>(remove: (id: string) => void): Column<T> {
  return {
    key: "actions",
    header: "",
    render: (row) => (
      <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => remove(row.id)}>
        Remove
      </button>
    ),
  };
}
