"use client";

import { quotaUsageLevels } from "@/server/domain/catalog/monitored-assets/usage-tier.schemas";
import { RowEditor, type RowColumn } from "../../ui/form";

export type BandRow = { endUsage: string; name: string; quotaUsageLevel: string };

const columns: RowColumn<BandRow>[] = [
  { key: "endUsage", header: "Remaining below", cell: "threshold", kind: "decimal" },
  { key: "name", header: "Name", cell: "name" },
  {
    key: "quotaUsageLevel",
    header: "Level",
    cell: "level",
    kind: "select",
    options: quotaUsageLevels.map((l) => ({ value: l, label: l })),
  },
];

/** Usage-quota bands: a band applies while the remaining balance is below its threshold; the lowest matching threshold wins. */
export function QuotaBandsEditor({
  rows,
  onChange,
}: {
  rows: BandRow[];
  onChange: (rows: BandRow[]) => void;
}) {
  return (
    <RowEditor<BandRow>
      label="Usage quota bands"
      rows={rows}
      onChange={onChange}
      columns={columns}
      rowName="Band"
      newRow={() => ({ endUsage: "", name: "", quotaUsageLevel: "None" })}
      addLabel="Add band"
      empty="No bands."
    >
      <p className="muted small">A band at Critical blocks further deductions.</p>
    </RowEditor>
  );
}
