"use client";

import {
  quotaUsageLevels,
  quotaUsagePolicies,
} from "@/server/domain/catalog/monitored-assets/usage-tier.schemas";
import { emptyTier, type TierForm } from "./plan-set-form";

/**
 * Usage tiers of one feature value, a row per tier (docs/api.md "Usage tier"). Percentages show with
 * percentage enforcement; a funding balance only with AllowWithOverage. `errorOf(path)` reads the
 * problem's field error under the tiers' path.
 */
export function TierTable({
  tiers,
  onChange,
  percentages,
  balanceMetrics,
  errorOf,
  label,
}: {
  tiers: TierForm[];
  onChange: (tiers: TierForm[]) => void;
  percentages: boolean;
  balanceMetrics: readonly string[];
  errorOf: (path: string) => string | undefined;
  label: string;
}) {
  const set = (i: number, patch: Partial<TierForm>) =>
    onChange(tiers.map((t, j) => (j === i ? { ...t, ...patch } : t)));
  const add = () => {
    const last = tiers[tiers.length - 1];
    onChange([...tiers, emptyTier(last ? Number(last.endUsage || last.startUsage) : 0)]);
  };
  const tableError = errorOf("");
  return (
    <div data-testid="tier-table">
      <table className="tier-table" aria-label={label}>
        <thead>
          <tr>
            <th>Tier</th>
            <th>Start</th>
            <th>End</th>
            {percentages ? (
              <>
                <th>Start %</th>
                <th>End %</th>
              </>
            ) : null}
            <th>Base credits</th>
            <th>Credits / unit</th>
            <th>Severity</th>
            <th>Policy</th>
            <th>Funding balance</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {tiers.map((t, i) => {
            const rowErrors = [
              "name",
              "startUsage",
              "endUsage",
              "startPercentage",
              "endPercentage",
              "quotaUsagePolicy",
              "fundingBalanceMetric",
            ]
              .map((f) => errorOf(`${i}.${f}`))
              .filter(Boolean);
            return [
              <tr key={t.key}>
                <td>
                  <input
                    aria-label="Tier name"
                    value={t.name}
                    onChange={(e) => set(i, { name: e.target.value })}
                    placeholder="Included"
                  />
                </td>
                <td>
                  <input
                    aria-label="Start usage"
                    inputMode="decimal"
                    value={t.startUsage}
                    onChange={(e) => set(i, { startUsage: e.target.value })}
                  />
                </td>
                <td>
                  <input
                    aria-label="End usage"
                    inputMode="decimal"
                    value={t.endUsage}
                    onChange={(e) => set(i, { endUsage: e.target.value })}
                    placeholder="open"
                  />
                </td>
                {percentages ? (
                  <>
                    <td>
                      <input
                        aria-label="Start percentage"
                        inputMode="decimal"
                        value={t.startPercentage}
                        onChange={(e) => set(i, { startPercentage: e.target.value })}
                      />
                    </td>
                    <td>
                      <input
                        aria-label="End percentage"
                        inputMode="decimal"
                        value={t.endPercentage}
                        onChange={(e) => set(i, { endPercentage: e.target.value })}
                      />
                    </td>
                  </>
                ) : null}
                <td>
                  <input
                    aria-label="Base credits"
                    inputMode="decimal"
                    value={t.baseCredits}
                    onChange={(e) => set(i, { baseCredits: e.target.value })}
                  />
                </td>
                <td>
                  <input
                    aria-label="Credits per unit"
                    inputMode="decimal"
                    value={t.creditsPerUnitOfConsumption}
                    onChange={(e) => set(i, { creditsPerUnitOfConsumption: e.target.value })}
                  />
                </td>
                <td>
                  <select
                    aria-label="Severity"
                    value={t.quotaUsageLevel}
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
                    aria-label="Policy"
                    value={t.quotaUsagePolicy}
                    onChange={(e) =>
                      set(i, {
                        quotaUsagePolicy: e.target.value,
                        ...(e.target.value === "AllowWithOverage" ? {} : { fundingBalanceMetric: "" }),
                      })
                    }
                  >
                    {quotaUsagePolicies.map((p) => (
                      <option key={p} value={p}>
                        {p}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <select
                    aria-label="Funding balance"
                    value={t.fundingBalanceMetric}
                    disabled={t.quotaUsagePolicy !== "AllowWithOverage"}
                    onChange={(e) => set(i, { fundingBalanceMetric: e.target.value })}
                  >
                    <option value="">
                      {t.quotaUsagePolicy === "AllowWithOverage" ? "none (report only)" : "—"}
                    </option>
                    {balanceMetrics.map((m) => (
                      <option key={m} value={m}>
                        {m}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <button
                    type="button"
                    className="btn-icon"
                    aria-label="Remove tier"
                    onClick={() => onChange(tiers.filter((_, j) => j !== i))}
                  >
                    ×
                  </button>
                </td>
              </tr>,
              rowErrors.length ? (
                <tr key={`${t.key}-errors`}>
                  <td colSpan={percentages ? 11 : 9} className="field-error">
                    {rowErrors.join(" ")}
                  </td>
                </tr>
              ) : null,
            ];
          })}
        </tbody>
      </table>
      {tableError ? <div className="field-error">{tableError}</div> : null}
      <button type="button" className="btn btn-small" onClick={add}>
        Add tier
      </button>
    </div>
  );
}
