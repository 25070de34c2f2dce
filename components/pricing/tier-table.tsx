"use client";

import { TierTableEditor } from "../catalog/monitored-assets/tier-table-editor";
import { emptyTier, type TierForm } from "./plan-set-form";

/**
 * Usage tiers of one feature value (docs/api.md "Usage tier"): the metric's tier table, with the
 * percentage columns only under percentage enforcement. `errorOf(path, label)` reads the sentence
 * filed under the tiers' path ("1.startUsage"; "" for the list itself).
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
  errorOf: (path: string, label?: string) => string | undefined;
  label: string;
}) {
  return (
    <div data-testid="tier-table">
      <TierTableEditor<TierForm>
        label={label}
        rows={tiers}
        onChange={onChange}
        percentages={percentages}
        balanceMetrics={balanceMetrics}
        newRow={(start) => ({ ...emptyTier(), startUsage: start })}
        errorOf={(i, field, cell) => errorOf(`${i}.${field}`, cell)}
        listError={errorOf("")}
      />
    </div>
  );
}
