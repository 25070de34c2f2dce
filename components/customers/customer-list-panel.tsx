"use client";

import { useState, type ReactNode } from "react";
import type { Column } from "../ui/data-table";
import { ConfirmDialog } from "../ui/form";
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

/** Remove, after saying what it does: a customer removed cannot be brought back. */
function RemoveButton({
  name,
  consequences,
  onRemove,
}: {
  name: string;
  consequences: string[];
  onRemove: () => void;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn btn-small btn-danger-ghost"
        aria-label={`Remove ${name}`}
        onClick={() => setAsking(true)}
      >
        Remove
      </button>
      <ConfirmDialog
        open={asking}
        title={`Remove ${name}?`}
        consequences={consequences}
        confirmLabel={`Remove ${name}`}
        danger
        onConfirm={() => {
          setAsking(false);
          onRemove();
        }}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}

/** The row action of a customers list: remove the row's customer, once confirmed. */
export function removeColumn<T extends { id: string }>(
  remove: (id: string) => void,
  describe: (row: T) => { name: string; consequences: string[] },
): Column<T> {
  return {
    key: "actions",
    header: "",
    render: (row) => <RemoveButton {...describe(row)} onRemove={() => remove(row.id)} />,
  };
}
