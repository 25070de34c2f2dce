"use client";

import { RowListField, type RowColumn } from "../../ui/form";

export type EnumOptionRow = { value: string; description: string };

const columns: RowColumn<EnumOptionRow>[] = [
  { key: "value", header: "Value", cell: "value" },
  { key: "description", header: "Description", cell: "description" },
];

/** An Enumeration feature's options: each a value and an optional description, edited as a table. */
export function EnumOptionsEditor({ name }: { name: string }) {
  return (
    <fieldset className="form-section">
      <legend>Options</legend>
      <RowListField<EnumOptionRow>
        name={name}
        listLabel="Options"
        label="Enumeration options"
        rowName="Option"
        columns={columns}
        newRow={() => ({ value: "", description: "" })}
        addLabel="Add option"
      />
    </fieldset>
  );
}
