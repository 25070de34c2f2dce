"use client";

import { useEffect } from "react";
import { get, useController, useFormState } from "react-hook-form";
import {
  accumulationMethods,
  consumptionPeriods,
  periodAnchors,
} from "@/server/domain/catalog/monitored-assets/monitored-asset.schemas";
import { SelectField, withLabel } from "../../ui/form";
import { useKit } from "../../ui/form/kit-context";
import { fieldError, type ProblemJson } from "../../ui/problem";
import { TierTableEditor, tierCellLabels, type TierRow } from "./tier-table-editor";

const options = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/** Metered usage: the period the allowance resets on and the tier table that prices and limits it. */
export function AssetMeteredFields({
  balanceMetrics,
  problem,
}: {
  balanceMetrics: string[];
  /** The server's refusal, whose tier errors show in their cells. */
  problem: ProblemJson | null;
}) {
  const { field } = useController({ name: "meteredUsage.usageTiers" });
  const { errors } = useFormState({ name: "meteredUsage.usageTiers" });
  const { labels } = useKit();
  const rows = field.value as TierRow[];
  // The form's summary names a cell's error as the cell does ("Tier 2 start").
  useEffect(() => {
    rows.forEach((_, i) => {
      for (const [name, label] of Object.entries(tierCellLabels))
        labels.set(`meteredUsage.usageTiers.${i}.${name}`, `Tier ${i + 1} ${label}`);
    });
  }, [labels, rows]);
  const errorOf = (i: number, name: string, label: string) => {
    const own = get(errors, `meteredUsage.usageTiers.${i}.${name}`) as { message?: string } | undefined;
    if (own?.message) return withLabel(own.message, label);
    return fieldError(problem, `usageTiers.${i}.${name}`, label);
  };
  return (
    <div className="form">
      <div className="form-grid">
        <SelectField
          name="meteredUsage.consumptionPeriod"
          label="Consumption period"
          hint="Blank: a lifetime allowance that never resets."
          options={consumptionPeriods.map((p) => ({ value: p, label: p || "(lifetime)" }))}
        />
        <SelectField
          name="meteredUsage.periodAnchor"
          label="Period anchor"
          options={options(periodAnchors)}
        />
        <SelectField
          name="meteredUsage.accumulationMethod"
          label="Accumulation"
          hint="Sliced: each unit at its own tier."
          options={options(accumulationMethods)}
        />
      </div>
      <TierTableEditor
        rows={rows}
        onChange={field.onChange}
        balanceMetrics={balanceMetrics}
        errorOf={errorOf}
      />
    </div>
  );
}
