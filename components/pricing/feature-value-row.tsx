"use client";

import { Fragment, useState } from "react";
import { enforcementTypes } from "@/server/domain/pricing/plan-sets/plan-set.schemas";
import type { FeatureValueForm } from "./plan-set-form";
import { TierTable } from "./tier-table";

export type FeatureOption = {
  id: string;
  featureCode: string;
  name: string;
  units: string | null;
  metricName: string | null;
  featureType: string;
  enumOptions: string[];
};

/** An input that reads a value string the way the feature's type does (docs/api.md "Feature catalog entry"). */
export function FeatureValueInput({
  feature,
  value,
  onChange,
  label,
}: {
  feature: FeatureOption | undefined;
  value: string;
  onChange: (v: string) => void;
  label: string;
}) {
  if (feature?.featureType === "Boolean") {
    return (
      <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">not set</option>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    );
  }
  if (feature?.featureType === "Enumeration") {
    return (
      <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">not set</option>
        {feature.enumOptions.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  }
  const placeholder =
    feature?.featureType === "Metered"
      ? "quota"
      : feature?.featureType === "JsonField"
        ? "{ }"
        : feature?.featureType === "Numeric"
          ? "number"
          : "";
  return (
    <input
      aria-label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder={placeholder}
      inputMode={
        feature?.featureType === "Numeric" || feature?.featureType === "Metered" ? "decimal" : undefined
      }
    />
  );
}

/** One feature value of a line item, with its tier table folded out under it for Metered features. */
export function FeatureValueRow({
  fv,
  features,
  balanceMetrics,
  onChange,
  onRemove,
  errorOf,
}: {
  fv: FeatureValueForm;
  features: readonly FeatureOption[];
  balanceMetrics: readonly string[];
  onChange: (fv: FeatureValueForm) => void;
  onRemove: () => void;
  /** The sentence filed at `field` under this value, naming it `label` when given (a tier's cell). */
  errorOf: (field: string, label?: string) => string | undefined;
}) {
  const feature = features.find((f) => f.featureCode === fv.featureCode);
  const [showTiers, setShowTiers] = useState(fv.usageTiers.length > 0);
  const metered = feature?.featureType === "Metered";
  const errors = ["featureCode", "metricName", "value", "enforcementType", "usageTiers"]
    .map((f) => errorOf(f))
    .filter(Boolean);
  return (
    <Fragment>
      <tr data-testid="feature-value-row">
        <td className="feature-cell">
          <select
            aria-label="Feature"
            value={fv.featureCode}
            onChange={(e) => {
              const next = features.find((f) => f.featureCode === e.target.value);
              onChange({
                ...fv,
                featureCode: e.target.value,
                metricName: next?.metricName ?? "",
                value: "",
                usageTiers: next?.featureType === "Metered" ? fv.usageTiers : [],
              });
            }}
          >
            {feature ? null : <option value={fv.featureCode}>{fv.featureCode || "Choose a feature"}</option>}
            {features.map((f) => (
              <option key={f.id} value={f.featureCode}>
                {f.name} ({f.featureCode})
              </option>
            ))}
          </select>
          <div className="muted small">
            {feature
              ? `${feature.featureType}${feature.units ? ` · ${feature.units}` : ""}`
              : "not a feature of this product"}
            {fv.metricName ? (
              <>
                {" "}
                · metric <code>{fv.metricName}</code>
              </>
            ) : null}
          </div>
        </td>
        <td>
          <FeatureValueInput
            feature={feature}
            value={fv.value}
            onChange={(value) => onChange({ ...fv, value })}
            label={`Value of ${feature?.name ?? fv.featureCode}`}
          />
        </td>
        <td>
          <select
            aria-label="Enforcement"
            value={fv.enforcementType}
            onChange={(e) => onChange({ ...fv, enforcementType: e.target.value })}
          >
            {enforcementTypes.map((t) => (
              <option key={t} value={t}>
                {t === "SingleValue" ? "Single value" : "Percentage"}
              </option>
            ))}
          </select>
        </td>
        <td className="nowrap">
          {metered ? (
            <button
              type="button"
              className="btn btn-small"
              aria-expanded={showTiers}
              onClick={() => setShowTiers(!showTiers)}
            >
              Tiers ({fv.usageTiers.length})
            </button>
          ) : null}
          <button type="button" className="btn-icon" aria-label="Remove feature value" onClick={onRemove}>
            ×
          </button>
        </td>
      </tr>
      {errors.length ? (
        <tr>
          <td colSpan={4} className="field-error">
            {errors.join(" ")}
          </td>
        </tr>
      ) : null}
      {metered && showTiers ? (
        <tr className="tier-row">
          <td colSpan={4}>
            <TierTable
              label={`Usage tiers of ${feature?.name ?? fv.featureCode}`}
              tiers={fv.usageTiers}
              onChange={(usageTiers) => onChange({ ...fv, usageTiers })}
              percentages={fv.enforcementType === "Percentage"}
              balanceMetrics={balanceMetrics}
              errorOf={(path, label) => (path ? errorOf(`usageTiers.${path}`, label) : undefined)}
            />
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}
