"use client";

import { CheckboxField } from "../../ui/form";

/** The product-feature switches of docs/api.md, as checkboxes. */
export type FeatureFlags = {
  isEnabled: boolean;
  includeInLicenseToken: boolean;
  isAvailableDuringTrialPeriod: boolean;
  isAvailableDuringGracePeriod: boolean;
  isPaidFeature: boolean;
  canModifyValueOnEntitlement: boolean;
};

const labels: [keyof FeatureFlags, string][] = [
  ["isEnabled", "Enabled"],
  ["includeInLicenseToken", "Include in license token"],
  ["isAvailableDuringTrialPeriod", "Available during trial"],
  ["isAvailableDuringGracePeriod", "Available during grace period"],
  ["isPaidFeature", "Paid feature"],
  ["canModifyValueOnEntitlement", "Value can change per entitlement"],
];

export const defaultFlags: FeatureFlags = {
  isEnabled: true,
  includeInLicenseToken: true,
  isAvailableDuringTrialPeriod: true,
  isAvailableDuringGracePeriod: true,
  isPaidFeature: false,
  canModifyValueOnEntitlement: false,
};

export const flagsOf = (f: FeatureFlags): FeatureFlags => ({
  isEnabled: f.isEnabled,
  includeInLicenseToken: f.includeInLicenseToken,
  isAvailableDuringTrialPeriod: f.isAvailableDuringTrialPeriod,
  isAvailableDuringGracePeriod: f.isAvailableDuringGracePeriod,
  isPaidFeature: f.isPaidFeature,
  canModifyValueOnEntitlement: f.canModifyValueOnEntitlement,
});

/** The switches as form-kit checkboxes, named as the request names them. */
export function FeatureFlagFields() {
  return (
    <div className="form-grid">
      {labels.map(([key, label]) => (
        <CheckboxField key={key} name={key} label={label} />
      ))}
    </div>
  );
}
