"use client";

import {
  quotaUsageLevels,
  quotaUsagePolicies,
} from "@/server/domain/catalog/monitored-assets/usage-tier.schemas";
import { RowEditor, type RowColumn } from "../../ui/form";

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

const levelOptions = quotaUsageLevels.map((l) => ({ value: l, label: l }));
const policyOptions = quotaUsagePolicies.map((p) => ({ value: p, label: p }));

/**
 * The tier table: half-open ranges [start, end), contiguous, the last may stay open (blank end).
 * A funding balance is only offered with the AllowWithOverage policy.
 */
export function TierTableEditor<R extends TierRow = TierRow>({
  rows,
  onChange,
  balanceMetrics,
  errorOf,
  label = "Usage tiers",
  percentages = true,
  newRow = (startUsage) => emptyTier(startUsage) as R,
  listError,
}: {
  rows: R[];
  onChange: (rows: R[]) => void;
  balanceMetrics: readonly string[];
  /** The sentence for a cell's error, naming the cell by `label` ("Tier 2 start"). */
  errorOf: (index: number, field: keyof TierRow, label: string) => string | undefined | null;
  label?: string;
  /** Percentage columns, for a value enforced as a percentage (a metric's own ladder always has them). */
  percentages?: boolean;
  /** A new row starting at `startUsage` (a plan's rows carry a list key). */
  newRow?: (startUsage: string) => R;
  listError?: string | null;
}) {
  const number = (key: keyof TierRow, header: string): RowColumn<R> => ({
    key,
    header,
    cell: tierCellLabels[key],
    kind: "decimal",
  });
  const columns: RowColumn<R>[] = [
    { key: "name", header: "Name", cell: tierCellLabels.name, wide: true },
    number("startUsage", "Start"),
    { ...number("endUsage", "End"), title: "Blank: open-ended (last tier only)" },
    ...(percentages ? [number("startPercentage", "Start %"), number("endPercentage", "End %")] : []),
    number("baseCredits", "Base credits"),
    number("creditsPerUnitOfConsumption", "Credits / unit"),
    {
      key: "quotaUsageLevel",
      header: "Level",
      cell: tierCellLabels.quotaUsageLevel,
      kind: "select",
      options: levelOptions,
    },
    {
      key: "quotaUsagePolicy",
      header: "Policy",
      cell: tierCellLabels.quotaUsagePolicy,
      kind: "select",
      options: policyOptions,
      // Only AllowWithOverage draws on a funding balance.
      onSet: (_row, policy) =>
        policy === "AllowWithOverage" ? {} : ({ fundingBalanceMetric: "" } as Partial<R>),
    },
    {
      key: "fundingBalanceMetric",
      header: "Funding balance",
      cell: tierCellLabels.fundingBalanceMetric,
      kind: "select",
      disabled: (row) => row.quotaUsagePolicy !== "AllowWithOverage",
      // A saved metric stays choosable even when the suite no longer lists it.
      options: (row) => [
        { value: "", label: "(report only)" },
        ...[
          ...new Set([...balanceMetrics, ...(row.fundingBalanceMetric ? [row.fundingBalanceMetric] : [])]),
        ].map((m) => ({ value: m, label: m })),
      ],
    },
  ];
  return (
    <RowEditor<R>
      label={label}
      rows={rows}
      onChange={onChange}
      columns={columns}
      rowName="Tier"
      rowTestId="tier-row"
      scroll
      newRow={(current) => newRow(current.length ? current[current.length - 1].endUsage || "" : "0")}
      addLabel="Add tier"
      empty="No tiers: usage is tracked but never priced or limited."
      errorOf={(i, key, cell) => errorOf(i, key as keyof TierRow, cell)}
      listError={listError}
    >
      <p className="muted small">
        Ranges run from start up to (not including) end; each tier starts where the previous ends, and only
        the last may leave its end blank (open). Percentages are of the feature value, for percentage-based
        enforcement.
      </p>
    </RowEditor>
  );
}
