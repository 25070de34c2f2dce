"use client";

import { Fragment } from "react";
import { get, useController, useFormState } from "react-hook-form";
import { addOnOperations } from "@/server/domain/pricing/add-ons/add-on.schemas";
import { withLabel } from "../ui/form";
import { fieldError, type ProblemJson } from "../ui/problem";
import { FeatureValueInput, type FeatureOption } from "./feature-value-row";
import { TierTable } from "./tier-table";
import { emptyAddOnValue, type AddOnValueForm } from "./add-on-values";
import { PlanTargetsPicker, useSuitePlanNames } from "./plan-targets-picker";

/** A row's fields and how its error sentences name them (the value by its feature). */
const rowFields: [string, (feature: string) => string][] = [
  ["featureCode", () => "Feature"],
  ["operation", () => "Operation"],
  ["value", (feature) => `Value of ${feature}`],
  ["planTargets", () => "Plan targets"],
  ["usageTiers", (feature) => `Tiers of ${feature}`],
];

/**
 * The add-on's feature values, one row each: the feature, how it combines with the plan's value
 * (Replace, Add, Tiered), the value or the tiers, and the plans it applies to.
 */
export function AddOnFeatureValues({
  suiteId,
  features,
  balanceMetrics,
  problem,
}: {
  /** The add-on's suite, whose plans a value may target. */
  suiteId: string;
  features: FeatureOption[] | undefined;
  balanceMetrics: string[];
  /** The server's refusal, whose value errors show under their rows. */
  problem: ProblemJson | null;
}) {
  const { field } = useController({ name: "featureValues" });
  const { errors } = useFormState({ name: "featureValues" });
  const values = field.value as AddOnValueForm[];
  const plans = useSuitePlanNames(suiteId);
  const setValues = (next: AddOnValueForm[]) => field.onChange(next);
  const setValue = (i: number, patch: Partial<AddOnValueForm>) =>
    setValues(values.map((v, j) => (j === i ? { ...v, ...patch } : v)));
  const errorAt = (i: number, path: string, label: string) => {
    const own = get(errors, `featureValues.${i}.${path}`) as { message?: string } | undefined;
    if (own?.message) return withLabel(own.message, label);
    return fieldError(problem, `featureValues.${i}.${path}`, label);
  };

  return (
    <section className="panel">
      <h2>Feature values</h2>
      <p className="muted small">
        Replace: the add-on&apos;s value replaces the plan&apos;s. Add: a number added to the plan&apos;s.
        Tiered: the add-on&apos;s tiers replace the plan&apos;s. Plan targets are the suite&apos;s plans; none
        checked applies to every plan.
      </p>
      {values.length ? (
        <table className="value-table" aria-label="Feature values">
          <thead>
            <tr>
              <th>Feature</th>
              <th>Operation</th>
              <th>Value</th>
              <th>Plan targets</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {values.map((v, i) => {
              const feature = features?.find((f) => f.featureCode === v.featureCode);
              const name = feature?.name ?? v.featureCode;
              const rowErrors = rowFields
                .map(([path, label]) => errorAt(i, path, label(name)))
                .filter(Boolean);
              return (
                <Fragment key={v.key}>
                  <tr data-testid="add-on-value-row">
                    <td>
                      <select
                        aria-label="Feature"
                        value={v.featureCode}
                        onChange={(e) => setValue(i, { featureCode: e.target.value, value: "" })}
                      >
                        {feature ? null : <option value={v.featureCode}>{v.featureCode}</option>}
                        {(features ?? []).map((f) => (
                          <option key={f.id} value={f.featureCode}>
                            {f.name} ({f.featureCode})
                          </option>
                        ))}
                      </select>
                    </td>
                    <td>
                      <select
                        aria-label="Operation"
                        value={v.operation}
                        onChange={(e) => setValue(i, { operation: e.target.value })}
                      >
                        {addOnOperations.map((o) => (
                          <option key={o} value={o}>
                            {o}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td>
                      {v.operation === "Tiered" ? (
                        <span className="muted small">tiers below</span>
                      ) : (
                        <FeatureValueInput
                          feature={feature}
                          value={v.value}
                          onChange={(value) => setValue(i, { value })}
                          label={`Value of ${name}`}
                        />
                      )}
                    </td>
                    <td>
                      <PlanTargetsPicker
                        value={v.planTargets}
                        onChange={(planTargets) => setValue(i, { planTargets })}
                        planNames={plans.names}
                        loading={plans.loading}
                      />
                    </td>
                    <td>
                      <button
                        type="button"
                        className="btn-icon"
                        aria-label="Remove value"
                        onClick={() => setValues(values.filter((_, j) => j !== i))}
                      >
                        ×
                      </button>
                    </td>
                  </tr>
                  {rowErrors.length ? (
                    <tr>
                      <td colSpan={5} className="field-error">
                        {rowErrors.join(" ")}
                      </td>
                    </tr>
                  ) : null}
                  {v.operation === "Tiered" ? (
                    <tr className="tier-row">
                      <td colSpan={5}>
                        <TierTable
                          label={`Tiers of ${name}`}
                          tiers={v.usageTiers}
                          onChange={(usageTiers) => setValue(i, { usageTiers })}
                          percentages={false}
                          balanceMetrics={balanceMetrics}
                          errorOf={(path, label) =>
                            path ? errorAt(i, `usageTiers.${path}`, label ?? `A tier of ${name}`) : undefined
                          }
                        />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      ) : (
        <p className="muted">No feature values: the add-on only switches its features on.</p>
      )}
      <button
        type="button"
        className="btn btn-small"
        disabled={!features?.length}
        onClick={() => setValues([...values, emptyAddOnValue(features?.[0]?.featureCode ?? "")])}
      >
        Add feature value
      </button>
    </section>
  );
}
