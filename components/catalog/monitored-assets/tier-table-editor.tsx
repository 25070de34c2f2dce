"use client";

import {
  quotaUsageLevels,
  quotaUsagePolicies,
} from "@/server/domain/catalog/monitored-assets/usage-tier.schemas";

/** One tier as the form holds it: numbers as typed, "" for an open end or no funding balance. */
export type TierRow = {
  name: string;
  startUsage: string;
  endUsage: string;
  startPercentage: string;
  endPercentage: string;
  baseCredits: string;
  creditsPerUnitOfConsumption: string;
  quotaUsageLevel: string;
  quotaUsagePolicy: string;
  fundingBalanceMetric: string;
};

export const emptyTier = (startUsage = "0"): TierRow => ({
  name: "",
  startUsage,
  endUsage: "",
  startPercentage: "0",
  endPercentage: "0",
  baseCredits: "0",
  creditsPerUnitOfConsumption: "0",
  quotaUsageLevel: "None",
  quotaUsagePolicy: "None",
  fundingBalanceMetric: "",
});

/** How a tier's cell is named, after "Tier 2": its aria-label and the subject of its error sentence. */
export const tierCellLabels: Record<keyof TierRow, string> = {
  name: "name",
  startUsage: "start",
  endUsage: "end",
  startPercentage: "start percentage",
  endPercentage: "end percentage",
  baseCredits: "base credits",
  creditsPerUnitOfConsumption: "credits per unit",
  quotaUsageLevel: "level",
  quotaUsagePolicy: "policy",
  fundingBalanceMetric: "funding balance",
};

const num = (s: string) => (s.trim() === "" ? NaN : Number(s));

/** The request shape of a tier row (zod reports anything that is not a number). */
export function tierInput(row: TierRow) {
  return {
    name: row.name,
    startUsage: num(row.startUsage),
    endUsage: row.endUsage.trim() === "" ? null : num(row.endUsage),
    startPercentage: num(row.startPercentage || "0"),
    endPercentage: num(row.endPercentage || "0"),
    baseCredits: num(row.baseCredits || "0"),
    creditsPerUnitOfConsumption: num(row.creditsPerUnitOfConsumption || "0"),
    quotaUsageLevel: row.quotaUsageLevel,
    quotaUsagePolicy: row.quotaUsagePolicy,
    fundingBalanceMetric: row.quotaUsagePolicy === "AllowWithOverage" ? row.fundingBalanceMetric : "",
  };
}

export function tierRow(t: {
  name: string;
  startUsage: number;
  endUsage: number | null;
  startPercentage: number;
  endPercentage: number;
  baseCredits: number;
  creditsPerUnitOfConsumption: number;
  quotaUsageLevel: string;
  quotaUsagePolicy: string;
  fundingBalanceMetric: string;
}): TierRow {
  return {
    name: t.name,
    startUsage: String(t.startUsage),
    endUsage: t.endUsage === null ? "" : String(t.endUsage),
    startPercentage: String(t.startPercentage),
    endPercentage: String(t.endPercentage),
    baseCredits: String(t.baseCredits),
    creditsPerUnitOfConsumption: String(t.creditsPerUnitOfConsumption),
    quotaUsageLevel: t.quotaUsageLevel,
    quotaUsagePolicy: t.quotaUsagePolicy,
    fundingBalanceMetric: t.fundingBalanceMetric,
  };
}

/**
 * The tier table: half-open ranges [start, end), contiguous, the last may stay open (blank end).
 * A funding balance is only offered with the AllowWithOverage policy.
 */
export function TierTableEditor({
  rows,
  onChange,
  balanceMetrics,
  errorOf,
}: {
  rows: TierRow[];
  onChange: (rows: TierRow[]) => void;
  balanceMetrics: string[];
  /** The sentence for a cell's error, naming the cell by `label` ("Tier 2 start"). */
  errorOf: (index: number, field: keyof TierRow, label: string) => string | undefined;
}) {
  const cellError = (i: number, field: keyof TierRow) => {
    const message = errorOf(i, field, `Tier ${i + 1} ${tierCellLabels[field]}`);
    return message ? <div className="cell-error">{message}</div> : null;
  };
  const set = (i: number, patch: Partial<TierRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const text = (i: number, field: keyof TierRow, mode: "text" | "decimal" = "decimal") => (
    <td className={mode === "text" ? "cell-wide" : undefined}>
      <input
        aria-label={`Tier ${i + 1} ${tierCellLabels[field]}`}
        inputMode={mode}
        value={rows[i][field]}
        onChange={(e) => set(i, { [field]: e.target.value })}
      />
      {cellError(i, field)}
    </td>
  );
  return (
    <div className="grid-scroll">
      <table className="grid-editor" aria-label="Usage tiers">
        <thead>
          <tr>
            <th>Name</th>
            <th>Start</th>
            <th title="Blank: open-ended (last tier only)">End</th>
            <th>Start %</th>
            <th>End %</th>
            <th>Base credits</th>
            <th>Credits / unit</th>
            <th>Level</th>
            <th>Policy</th>
            <th>Funding balance</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={11} className="muted small">
                No tiers: usage is tracked but never priced or limited.
              </td>
            </tr>
          ) : null}
          {rows.map((row, i) => (
            <tr key={i} data-testid="tier-row">
              {text(i, "name", "text")}
              {text(i, "startUsage")}
              {text(i, "endUsage")}
              {text(i, "startPercentage")}
              {text(i, "endPercentage")}
              {text(i, "baseCredits")}
              {text(i, "creditsPerUnitOfConsumption")}
              <td>
                <select
                  aria-label={`Tier ${i + 1} level`}
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
                <select
                  aria-label={`Tier ${i + 1} policy`}
                  value={row.quotaUsagePolicy}
                  onChange={(e) => set(i, { quotaUsagePolicy: e.target.value })}
                >
                  {quotaUsagePolicies.map((p) => (
                    <option key={p} value={p}>
                      {p}
                    </option>
                  ))}
                </select>
                {cellError(i, "quotaUsagePolicy")}
              </td>
              <td>
                <select
                  aria-label={`Tier ${i + 1} funding balance`}
                  value={row.fundingBalanceMetric}
                  disabled={row.quotaUsagePolicy !== "AllowWithOverage"}
                  onChange={(e) => set(i, { fundingBalanceMetric: e.target.value })}
                >
                  <option value="">(report only)</option>
                  {[
                    ...new Set([
                      ...balanceMetrics,
                      ...(row.fundingBalanceMetric ? [row.fundingBalanceMetric] : []),
                    ]),
                  ].map((m) => (
                    <option key={m} value={m}>
                      {m}
                    </option>
                  ))}
                </select>
                {cellError(i, "fundingBalanceMetric")}
              </td>
              <td>
                <button
                  type="button"
                  className="btn btn-small btn-ghost"
                  aria-label={`Remove tier ${i + 1}`}
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
        onClick={() =>
          onChange([...rows, emptyTier(rows.length ? rows[rows.length - 1].endUsage || "" : "0")])
        }
      >
        Add tier
      </button>
      <p className="muted small">
        Ranges run from start up to (not including) end; each tier starts where the previous ends, and only
        the last may leave its end blank (open). Percentages are of the feature value, for percentage-based
        enforcement.
      </p>
    </div>
  );
}
