"use client";

import { get, useFormState, useWatch, type FieldErrors } from "react-hook-form";
import { withLabel } from "../ui/form";
import { formatCountOf } from "../ui/format";
import type { FeatureOption } from "./feature-value-row";
import type { MemberOption } from "./plan-line-items";
import { planPriceText, type PlanForm } from "./plan-set-form";

/** The feature codes any plan sets for `productId`, in the product's own order, then the rest. */
function featureRows(plans: PlanForm[], productId: string, features: FeatureOption[] | undefined) {
  const used = new Set<string>();
  for (const plan of plans)
    for (const item of plan.lineItems)
      if (item.productId === productId) for (const fv of item.featureValues) used.add(fv.featureCode);
  const ordered = (features ?? []).map((f) => f.featureCode).filter((c) => used.has(c));
  return [...ordered, ...[...used].filter((c) => !ordered.includes(c))];
}

/** Every error sentence filed under a plan's path (flattened), for its column's foot. */
function sentencesUnder(errors: FieldErrors, path: string, labelOf: (name: string) => string): string[] {
  const out: string[] = [];
  const walk = (node: unknown, name: string) => {
    if (!node || typeof node !== "object") return;
    const message = (node as { message?: unknown }).message;
    if (typeof message === "string" && message) out.push(withLabel(message, labelOf(name)));
    for (const [key, child] of Object.entries(node))
      if (key !== "ref" && key !== "message" && key !== "type") walk(child, `${name}.${key}`);
  };
  walk(get(errors, path), path);
  return out;
}

/**
 * The plan set as a pricing table: one column per plan (name, price, description), then per suite
 * member whether the plan includes it and a row per feature the plans set. Cells read; editing is
 * the plan's dialog.
 */
export function PricingTable({
  members,
  featuresOf,
  membersLoading,
  readOnly,
  onEdit,
  onMove,
  onRemove,
  labelOf,
}: {
  members: readonly MemberOption[];
  featuresOf: Map<string, FeatureOption[] | undefined>;
  membersLoading: boolean;
  readOnly: boolean;
  onEdit: (index: number) => void;
  onMove: (index: number, delta: number) => void;
  onRemove: (index: number) => void;
  labelOf: (name: string) => string;
}) {
  const plans = (useWatch({ name: "plans" }) as PlanForm[] | undefined) ?? [];
  const pricingMode = useWatch({ name: "pricingMode" }) as string;
  const { errors } = useFormState({ name: "plans" });
  if (plans.length === 0)
    return <p className="muted panel">No plans yet. Add the first plan to price this set.</p>;
  // Products a plan names that are not (or not yet known to be) suite members still get their rows.
  const productIds = [
    ...members.map((m) => m.productId),
    ...new Set(
      plans.flatMap((p) =>
        p.lineItems.map((li) => li.productId).filter((id) => !members.some((m) => m.productId === id)),
      ),
    ),
  ];
  const productName = (id: string) =>
    members.find((m) => m.productId === id)?.label ??
    (membersLoading ? "Loading product…" : "A product no longer in the suite");
  const nameOf = (plan: PlanForm, i: number) => plan.name.trim() || `Plan ${i + 1}`;
  const problems = plans.map((_, i) => sentencesUnder(errors, `plans.${i}`, labelOf));

  return (
    <div className="pricing-table-scroll">
      <table className="pricing-table" aria-label="Plans" data-testid="pricing-table">
        <thead>
          <tr>
            <th scope="col" className="pricing-table-corner">
              <span className="sr-only">Plan</span>
            </th>
            {plans.map((plan, i) => (
              <th scope="col" key={plan.key} data-testid="plan-column">
                <span className="plan-column-name">{nameOf(plan, i)}</span>
                <span className="plan-column-price">{planPriceText(plan, pricingMode)}</span>
                {readOnly ? null : (
                  <span className="plan-column-actions">
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-label={`Edit ${nameOf(plan, i)}`}
                      onClick={() => onEdit(i)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="btn btn-small btn-ghost"
                      aria-label={`Move ${nameOf(plan, i)} left`}
                      disabled={i === 0}
                      onClick={() => onMove(i, -1)}
                    >
                      ←
                    </button>
                    <button
                      type="button"
                      className="btn btn-small btn-ghost"
                      aria-label={`Move ${nameOf(plan, i)} right`}
                      disabled={i === plans.length - 1}
                      onClick={() => onMove(i, 1)}
                    >
                      →
                    </button>
                    <button
                      type="button"
                      className="btn btn-small btn-danger-ghost"
                      aria-label={`Remove ${nameOf(plan, i)}`}
                      onClick={() => onRemove(i)}
                    >
                      ×
                    </button>
                  </span>
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Description</th>
            {plans.map((plan) => (
              <td key={plan.key} className="muted small">
                {plan.description || "—"}
              </td>
            ))}
          </tr>
          {productIds.map((productId) => (
            <ProductRows
              key={productId}
              productId={productId}
              productName={productName(productId)}
              plans={plans}
              features={featuresOf.get(productId)}
            />
          ))}
          {problems.some((p) => p.length) ? (
            <tr className="pricing-table-problems">
              <th scope="row">
                <span className="sr-only">To correct</span>
              </th>
              {plans.map((plan, i) => (
                <td key={plan.key}>
                  {problems[i].map((s) => (
                    <div className="field-error" key={s}>
                      {s}
                    </div>
                  ))}
                </td>
              ))}
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

function ProductRows({
  productId,
  productName,
  plans,
  features,
}: {
  productId: string;
  productName: string;
  plans: PlanForm[];
  features: FeatureOption[] | undefined;
}) {
  const itemOf = (plan: PlanForm) => plan.lineItems.find((li) => li.productId === productId);
  return (
    <>
      <tr className="pricing-table-group">
        <th scope="rowgroup" colSpan={plans.length + 1}>
          {productName}
        </th>
      </tr>
      <tr>
        <th scope="row">Included</th>
        {plans.map((plan) => {
          const item = itemOf(plan);
          return <td key={plan.key}>{!item ? "—" : item.included ? "✓ Included" : "Not included"}</td>;
        })}
      </tr>
      {featureRows(plans, productId, features).map((code) => {
        const feature = features?.find((f) => f.featureCode === code);
        return (
          <tr key={code}>
            <th scope="row">{feature?.name ?? code}</th>
            {plans.map((plan) => {
              const item = itemOf(plan);
              const fv = item?.featureValues.find((v) => v.featureCode === code);
              const units = feature?.units ? ` ${feature.units}` : "";
              return (
                <td key={plan.key}>
                  {!item ? (
                    <span className="muted">—</span>
                  ) : !fv ? (
                    <span className="muted">product default</span>
                  ) : (
                    <>
                      {fv.value === "" ? "not set" : `${fv.value}${units}`}
                      {fv.enforcementType === "Percentage" ? (
                        <span className="muted small"> (percentage)</span>
                      ) : null}
                      {fv.usageTiers.length ? (
                        <div className="muted small">{formatCountOf(fv.usageTiers.length, "tier")}</div>
                      ) : null}
                    </>
                  )}
                </td>
              );
            })}
          </tr>
        );
      })}
    </>
  );
}
