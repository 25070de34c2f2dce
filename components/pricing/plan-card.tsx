"use client";

import { Field } from "../ui/field";
import { newKey, type LineItemForm, type PlanForm } from "./plan-set-form";
import { FeatureValueRow, type FeatureOption } from "./feature-value-row";

export type MemberOption = { productId: string; label: string };

/** One plan of the set: price or weight, and a line item per suite member it configures. */
export function PlanCard({
  plan,
  index,
  pricingMode,
  members,
  features,
  balanceMetrics,
  onChange,
  onRemove,
  onMove,
  errorOf,
}: {
  plan: PlanForm;
  index: number;
  pricingMode: "Absolute" | "Relative";
  members: readonly MemberOption[];
  features: readonly FeatureOption[];
  balanceMetrics: readonly string[];
  onChange: (plan: PlanForm) => void;
  onRemove: () => void;
  onMove: (delta: number) => void;
  errorOf: (path: string) => string | undefined;
}) {
  const at = (field: string) => errorOf(`plans.${index}.${field}`);
  const setItem = (j: number, item: LineItemForm) =>
    onChange({ ...plan, lineItems: plan.lineItems.map((li, k) => (k === j ? item : li)) });
  const missing = members.filter((m) => !plan.lineItems.some((li) => li.productId === m.productId));
  const label = plan.name || `Plan ${index + 1}`;
  return (
    <section className="plan-card" data-testid="plan-card" aria-label={`Plan ${label}`}>
      <div className="plan-card-head">
        <h3>{label}</h3>
        <button
          type="button"
          className="btn btn-small btn-ghost"
          aria-label={`Move ${label} up`}
          onClick={() => onMove(-1)}
        >
          ↑
        </button>
        <button
          type="button"
          className="btn btn-small btn-ghost"
          aria-label={`Move ${label} down`}
          onClick={() => onMove(1)}
        >
          ↓
        </button>
        <button type="button" className="btn btn-small btn-danger-ghost" onClick={onRemove}>
          Remove plan
        </button>
      </div>
      <div className="grid-3">
        <Field label="Plan name" htmlFor={`plan-${plan.key}-name`} error={at("name")}>
          <input
            id={`plan-${plan.key}-name`}
            value={plan.name}
            onChange={(e) => onChange({ ...plan, name: e.target.value })}
          />
        </Field>
        {pricingMode === "Absolute" ? (
          <>
            <Field
              label="Monthly price"
              htmlFor={`plan-${plan.key}-price`}
              hint="Empty = not priced yet; 0 = free."
              error={at("monthlyPrice")}
            >
              <input
                id={`plan-${plan.key}-price`}
                inputMode="decimal"
                value={plan.monthlyPrice}
                onChange={(e) => onChange({ ...plan, monthlyPrice: e.target.value })}
              />
            </Field>
            <Field
              label="Currency"
              htmlFor={`plan-${plan.key}-currency`}
              hint="ISO 4217, required for a paid plan."
              error={at("currency")}
            >
              <input
                id={`plan-${plan.key}-currency`}
                value={plan.currency}
                maxLength={3}
                onChange={(e) => onChange({ ...plan, currency: e.target.value.toUpperCase() })}
                placeholder="EUR"
              />
            </Field>
          </>
        ) : (
          <Field
            label="Relative weight"
            htmlFor={`plan-${plan.key}-weight`}
            hint="Empty = not weighted yet; 0 = no weight."
            error={at("relativeWeight")}
          >
            <input
              id={`plan-${plan.key}-weight`}
              inputMode="decimal"
              value={plan.relativeWeight}
              onChange={(e) => onChange({ ...plan, relativeWeight: e.target.value })}
            />
          </Field>
        )}
      </div>
      <Field label="Description" htmlFor={`plan-${plan.key}-description`} error={at("description")}>
        <input
          id={`plan-${plan.key}-description`}
          value={plan.description}
          onChange={(e) => onChange({ ...plan, description: e.target.value })}
        />
      </Field>

      {plan.lineItems.map((item, j) => {
        const member = members.find((m) => m.productId === item.productId);
        const itemPath = `lineItems.${j}`;
        return (
          <div className="line-item" key={item.key} data-testid="line-item">
            <div className="line-item-head">
              <strong>{member?.label ?? `Product ${item.productId} (no longer a member)`}</strong>
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
                onClick={() => onChange({ ...plan, lineItems: plan.lineItems.filter((_, k) => k !== j) })}
              >
                Remove
              </button>
            </div>
            {at(`${itemPath}.productId`) ? (
              <div className="field-error">{at(`${itemPath}.productId`)}</div>
            ) : null}
            {item.featureValues.length ? (
              <table
                className="value-table"
                aria-label={`Feature values of ${member?.label ?? item.productId} in ${label}`}
              >
                <thead>
                  <tr>
                    <th>Feature</th>
                    <th>Value</th>
                    <th>Enforcement</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {item.featureValues.map((fv, k) => (
                    <FeatureValueRow
                      key={fv.key}
                      fv={fv}
                      features={features}
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
                      errorOf={(field) => at(`${itemPath}.featureValues.${k}.${field}`)}
                    />
                  ))}
                </tbody>
              </table>
            ) : (
              <p className="muted small">No feature values: the product&apos;s own values apply.</p>
            )}
            <button
              type="button"
              className="btn btn-small"
              disabled={features.length === 0}
              onClick={() => {
                const unused = features.find(
                  (f) => !item.featureValues.some((fv) => fv.featureCode === f.featureCode),
                );
                if (!unused) return;
                setItem(j, {
                  ...item,
                  featureValues: [
                    ...item.featureValues,
                    {
                      key: newKey(),
                      featureCode: unused.featureCode,
                      metricName: unused.metricName ?? "",
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
            aria-label={`Add a product to ${label}`}
            value=""
            onChange={(e) =>
              e.target.value &&
              onChange({
                ...plan,
                lineItems: [
                  ...plan.lineItems,
                  { key: newKey(), productId: e.target.value, included: true, featureValues: [] },
                ],
              })
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
    </section>
  );
}
