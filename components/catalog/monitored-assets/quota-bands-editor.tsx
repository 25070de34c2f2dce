"use client";

import { quotaUsageLevels } from "@/server/domain/catalog/monitored-assets/usage-tier.schemas";

export type BandRow = { endUsage: string; name: string; quotaUsageLevel: string };

/** Usage-quota bands: a band applies while the remaining balance is below its threshold; the lowest matching threshold wins. */
export function QuotaBandsEditor({
  rows,
  onChange,
}: {
  rows: BandRow[];
  onChange: (rows: BandRow[]) => void;
}) {
  const set = (i: number, patch: Partial<BandRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <div>
      <table className="grid-editor" aria-label="Usage quota bands">
        <thead>
          <tr>
            <th>Remaining below</th>
            <th>Name</th>
            <th>Level</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={4} className="muted small">
                No bands.
              </td>
            </tr>
          ) : null}
          {rows.map((row, i) => (
            <tr key={i}>
              <td>
                <input
                  aria-label={`Band ${i + 1} threshold`}
                  inputMode="decimal"
                  value={row.endUsage}
                  onChange={(e) => set(i, { endUsage: e.target.value })}
                />
              </td>
              <td>
                <input
                  aria-label={`Band ${i + 1} name`}
                  value={row.name}
                  onChange={(e) => set(i, { name: e.target.value })}
                />
              </td>
              <td>
                <select
                  aria-label={`Band ${i + 1} level`}
                  value={row.quotaUsageLevel}
                  onChange={(e) => set(i, { quotaUsageLevel: e.target.value })}
                >
                  {quotaUsageLevels.map((l) => (
                    <option key={l} value={l}>
                      {l}
                    </option>
                  ))}
                </select>
              </td>
              <td>
                <button
                  type="button"
                  className="btn btn-small btn-ghost"
                  aria-label={`Remove band ${i + 1}`}
                  onClick={() => onChange(rows.filter((_, j) => j !== i))}
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
        onClick={() => onChange([...rows, { endUsage: "", name: "", quotaUsageLevel: "None" }])}
      >
        Add band
      </button>
      <p className="muted small">A band at Critical blocks further deductions.</p>
    </div>
  );
}
