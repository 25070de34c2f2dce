"use client";

import { useEffect } from "react";
import { get, useController, useFormState } from "react-hook-form";
import { withLabel } from "../../ui/form";
import { useKit } from "../../ui/form/kit-context";

export type EnumOptionRow = { value: string; description: string };

/** An Enumeration feature's options: each a value and an optional description, edited as a table. */
export function EnumOptionsEditor({ name }: { name: string }) {
  const { field } = useController({ name });
  const { errors } = useFormState({ name });
  const { labels } = useKit();
  const options = field.value as EnumOptionRow[];
  const set = (next: EnumOptionRow[]) => field.onChange(next);
  // The form's summary names the list and each cell as the table does.
  useEffect(() => {
    labels.set(name, "Options");
    options.forEach((_, i) => {
      labels.set(`${name}.${i}.value`, `Option ${i + 1} value`);
      labels.set(`${name}.${i}.description`, `Option ${i + 1} description`);
    });
  }, [labels, name, options]);
  const message = (path: string, label: string) => {
    const error = get(errors, path) as { message?: string } | undefined;
    return error?.message ? withLabel(error.message, label) : null;
  };
  const listError = message(name, "Options");
  return (
    <fieldset className="form-section">
      <legend>Options</legend>
      {listError ? <div className="field-error">{listError}</div> : null}
      <table className="grid-editor" aria-label="Enumeration options">
        <thead>
          <tr>
            <th>Value</th>
            <th>Description</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {options.map((o, i) => (
            <tr key={i}>
              {(["value", "description"] as const).map((key) => (
                <td key={key}>
                  <input
                    aria-label={`Option ${i + 1} ${key}`}
                    value={o[key]}
                    onChange={(e) =>
                      set(options.map((x, j) => (j === i ? { ...x, [key]: e.target.value } : x)))
                    }
                  />
                  {message(`${name}.${i}.${key}`, `Option ${i + 1} ${key}`) ? (
                    <div className="cell-error">
                      {message(`${name}.${i}.${key}`, `Option ${i + 1} ${key}`)}
                    </div>
                  ) : null}
                </td>
              ))}
              <td>
                <button
                  type="button"
                  className="btn btn-small btn-ghost"
                  aria-label={`Remove option ${i + 1}`}
                  onClick={() => set(options.filter((_, j) => j !== i))}
                >
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button
        type="button"
        className="btn btn-small"
        onClick={() => set([...options, { value: "", description: "" }])}
      >
        Add option
      </button>
    </fieldset>
  );
}
