"use client";

import { get, useController, useFormState } from "react-hook-form";
import { withLabel } from "../ui/form";
import { FeatureValueRow, type FeatureOption } from "./feature-value-row";
import { newKey, type LineItemForm } from "./plan-set-form";

export type MemberOption = { productId: string; label: string };

/** A feature value's parts as its error sentence names them. */
const valueLabels: Record<string, (feature: string) => string> = {
  featureCode: () => "Feature",
  metricName: (f) => `Metric of ${f}`,
  value: (f) => `Value of ${f}`,
  enforcementType: () => "Enforcement",
  usageTiers: (f) => `Tiers of ${f}`,
};

/**
 * A plan's line items, one per suite member it configures: included or not, and the values it
 * sets for that product's own features (only those: a value for a feature the product lacks
 * would never reach a license).
 */
export function PlanLineItems({
  name,
  planLabel,
  members,
  membersLoading,
  featuresOf,
  balanceMetrics,
}: {
  /** The form path of the plan's line items ("plans.0.lineItems"). */
  name: string;
  planLabel: string;
  members: readonly MemberOption[];
  membersLoading: boolean;
  featuresOf: Map<string, FeatureOption[] | undefined>;
  balanceMetrics: readonly string[];
}) {
  const { field } = useController({ name });
  const { errors } = useFormState({ name });
  const items = (field.value as LineItemForm[] | undefined) ?? [];
  const setItem = (j: number, item: LineItemForm) =>
    field.onChange(items.map((li, k) => (k === j ? item : li)));
  const missing = members.filter((m) => !items.some((li) => li.productId === m.productId));
  const sentence = (path: string, label: string) => {
    const error = get(errors, `${name}.${path}`) as { message?: string } | undefined;
    return error?.message ? withLabel(error.message, label) : undefined;
  };

  return (
    <div className="plan-line-items">
      {items.map((item, j) => {
        const member = members.find((m) => m.productId === item.productId);
        const productName =
          member?.label ?? (membersLoading ? "Loading product…" : "A product no longer in the suite");
        const features = featuresOf.get(item.productId);
        const unused = (features ?? []).filter(
          (f) => !item.featureValues.some((fv) => fv.featureCode === f.featureCode),
        );
        const productError = sentence(`${j}.productId`, "Product");
        return (
          <div className="line-item" key={item.key} data-testid="line-item">
            <div className="line-item-head">
              <strong>{productName}</strong>
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={item.included}
                  onChange={(e) => setItem(j, { ...item, included: e.target.checked })}
                />
                Included
              </label>
              <button
                type="button"
                className="btn btn-small btn-danger-ghost"
                aria-label={`Remove ${productName} from ${planLabel}`}
                onClick={() => field.onChange(items.filter((_, k) => k !== j))}
              >
                Remove
              </button>
            </div>
            {productError ? <div className="field-error">{productError}</div> : null}
            {item.featureValues.length ? (
              <table className="value-table" aria-label={`Feature values of ${productName} in ${planLabel}`}>
                <thead>
                  <tr>
                    <th>Feature</th>
                    <th>Value</th>
                    <th>Enforcement</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {item.featureValues.map((fv, k) => {
                    const featureName =
                      features?.find((f) => f.featureCode === fv.featureCode)?.name ?? fv.featureCode;
                    return (
                      <FeatureValueRow
                        key={fv.key}
                        fv={fv}
                        features={features ?? []}
                        balanceMetrics={balanceMetrics}
                        onChange={(next) =>
                          setItem(j, {
                            ...item,
                            featureValues: item.featureValues.map((x, m) => (m === k ? next : x)),
                          })
                        }
                        onRemove={() =>
                          setItem(j, { ...item, featureValues: item.featureValues.filter((_, m) => m !== k) })
                        }
                        errorOf={(path, cell) => {
                          const head = path.split(".")[0];
                          const label =
                            cell ??
                            (path.startsWith("usageTiers.")
                              ? `A tier of ${featureName}`
                              : (valueLabels[head]?.(featureName) ?? featureName));
                          return sentence(`${j}.featureValues.${k}.${path}`, label);
                        }}
                      />
                    );
                  })}
                </tbody>
              </table>
            ) : (
              <p className="muted small">No feature values: the product&apos;s own values apply.</p>
            )}
            <button
              type="button"
              className="btn btn-small"
              disabled={unused.length === 0}
              title={
                features && unused.length === 0 ? "Every feature of the product has a value." : undefined
              }
              onClick={() => {
                const next = unused[0];
                if (!next) return;
                setItem(j, {
                  ...item,
                  featureValues: [
                    ...item.featureValues,
                    {
                      key: newKey(),
                      featureCode: next.featureCode,
                      metricName: next.metricName ?? "",
                      enforcementType: "SingleValue",
                      value: "",
                      usageTiers: [],
                    },
                  ],
                });
              }}
            >
              Add feature value
            </button>
          </div>
        );
      })}
      {missing.length ? (
        <div className="inline-add">
          <select
            aria-label={`Add a product to ${planLabel}`}
            value=""
            onChange={(e) =>
              e.target.value &&
              field.onChange([
                ...items,
                { key: newKey(), productId: e.target.value, included: true, featureValues: [] },
              ])
            }
          >
            <option value="">Add a line item for…</option>
            {missing.map((m) => (
              <option key={m.productId} value={m.productId}>
                {m.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
    </div>
  );
}
