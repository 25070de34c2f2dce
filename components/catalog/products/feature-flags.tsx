"use client";

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

export function FeatureFlagsInput({
  flags,
  onChange,
}: {
  flags: FeatureFlags;
  onChange: (flags: FeatureFlags) => void;
}) {
  return (
    <div className="form-grid">
      {labels.map(([key, label]) => (
        <label key={key} className="checkbox">
          <input
            type="checkbox"
            checked={flags[key]}
            onChange={(e) => onChange({ ...flags, [key]: e.target.checked })}
          />
          {label}
        </label>
      ))}
    </div>
  );
}
