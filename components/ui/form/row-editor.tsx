"use client";

import { useEffect, type ReactNode } from "react";
import { get, useController, useFormState } from "react-hook-form";
import { useKit } from "./kit-context";
import { withLabel } from "./messages";
import { cellLabel, withCell, type Row, type RowColumn } from "./row-editor-rows";

export { cellLabel, withCell, type RowColumn };

export type RowEditorProps<R extends Row> = {
  /** The table's accessible name. */
  label: string;
  rows: R[];
  onChange: (rows: R[]) => void;
  columns: RowColumn<R>[];
  /** The row's name in cell labels and the remove button: "Tier" → "Tier 2 start", "Remove tier 2". */
  rowName: string;
  newRow: (rows: R[]) => R;
  addLabel: string;
  /** Shown as the only row when there are none. */
  empty?: ReactNode;
  /** The sentence for a cell's error, given the cell's label. */
  errorOf?: (index: number, key: keyof R & string, label: string) => string | undefined | null;
  /** The list's own error (too many rows, a rule across rows). */
  listError?: string | null;
  rowTestId?: string;
  /** Wide tables scroll inside their frame instead of pushing the page sideways. */
  scroll?: boolean;
  disabled?: boolean;
  children?: ReactNode;
};

/**
 * A list edited as a table, one row per entry with a remove button and an add button below:
 * enumeration options, quota bands, usage tiers, property metadata. Cells are named by row
 * ("Option 2 value") so an error sentence says which one.
 */
export function RowEditor<R extends Row>({
  label,
  rows,
  onChange,
  columns,
  rowName,
  newRow,
  addLabel,
  empty,
  errorOf,
  listError,
  rowTestId,
  scroll,
  disabled,
  children,
}: RowEditorProps<R>) {
  const lower = rowName.toLowerCase();
  const table = (
    <table className="grid-editor" aria-label={label}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.key} title={c.title}>
              {c.header}
            </th>
          ))}
          <th />
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && empty ? (
          <tr>
            <td colSpan={columns.length + 1} className="muted small">
              {empty}
            </td>
          </tr>
        ) : null}
        {rows.map((row, i) => (
          <tr key={i} data-testid={rowTestId}>
            {columns.map((c) => {
              const name = cellLabel(rowName, i, c.cell);
              const message = errorOf?.(i, c.key, name);
              const cellDisabled = disabled || c.disabled?.(row);
              const update = (value: string) => onChange(withCell(rows, i, c, value));
              const options = typeof c.options === "function" ? c.options(row) : (c.options ?? []);
              return (
                <td key={c.key} className={c.wide ? "cell-wide" : undefined}>
                  {c.kind === "select" ? (
                    <select
                      aria-label={name}
                      aria-invalid={message ? true : undefined}
                      value={row[c.key]}
                      disabled={cellDisabled}
                      onChange={(e) => update(e.target.value)}
                    >
                      {options.map((o) => (
                        <option key={o.value} value={o.value}>
                          {o.label}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <input
                      aria-label={name}
                      aria-invalid={message ? true : undefined}
                      inputMode={c.kind === "decimal" ? "decimal" : undefined}
                      placeholder={c.placeholder}
                      value={row[c.key]}
                      disabled={cellDisabled}
                      onChange={(e) => update(e.target.value)}
                    />
                  )}
                  {message ? <div className="cell-error">{message}</div> : null}
                </td>
              );
            })}
            <td>
              <button
                type="button"
                className="btn btn-small btn-ghost"
                aria-label={`Remove ${lower} ${i + 1}`}
                disabled={disabled}
                onClick={() => onChange(rows.filter((_, j) => j !== i))}
              >
                ×
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <div className={scroll ? "grid-scroll" : undefined}>
      {listError ? <div className="field-error">{listError}</div> : null}
      {table}
      <button
        type="button"
        className="btn btn-small"
        disabled={disabled}
        onClick={() => onChange([...rows, newRow(rows)])}
      >
        {addLabel}
      </button>
      {children}
    </div>
  );
}

/**
 * A row editor bound to the list at `name` in the form: its rows are the form's value, its cells'
 * errors the form's, and the summary names each cell as the table does.
 */
export function RowListField<R extends Row>({
  name,
  listLabel,
  ...props
}: Omit<RowEditorProps<R>, "rows" | "onChange" | "errorOf" | "listError"> & {
  name: string;
  /** The list's name in its own error sentence ("Options"). */
  listLabel: string;
}) {
  const { field } = useController({ name });
  const { errors } = useFormState({ name });
  const { labels } = useKit();
  const rows = (field.value as R[] | undefined) ?? [];
  const count = rows.length;
  const { columns, rowName } = props;
  useEffect(() => {
    labels.set(name, listLabel);
    for (let i = 0; i < count; i++)
      for (const c of columns) labels.set(`${name}.${i}.${c.key}`, cellLabel(rowName, i, c.cell));
  }, [labels, name, listLabel, count, columns, rowName]);
  const sentence = (path: string, label: string) => {
    const error = get(errors, path) as { message?: string } | undefined;
    return error?.message ? withLabel(error.message, label) : null;
  };
  return (
    <RowEditor<R>
      {...props}
      rows={rows}
      onChange={field.onChange}
      listError={sentence(name, listLabel) ?? sentence(`${name}.root`, listLabel)}
      errorOf={(i, key, label) => sentence(`${name}.${i}.${key}`, label)}
    />
  );
}
