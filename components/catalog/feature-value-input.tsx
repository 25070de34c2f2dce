"use client";

/** The entry facts that decide how a feature value is edited (docs/api.md featureType). */
export type FeatureTypeInfo = {
  featureType: string;
  enumOptions: { value: string; description: string | null }[];
};

/**
 * A value editor that fits the feature's type: a true/false choice for Boolean, the options of an
 * Enumeration, a number for Numeric and Metered (a quota), a text area for JsonField, a line of
 * text otherwise. "" stands for "no value".
 */
export function FeatureValueInput({
  id,
  type,
  value,
  onChange,
}: {
  id: string;
  type: FeatureTypeInfo;
  value: string;
  onChange: (value: string) => void;
}) {
  switch (type.featureType) {
    case "Boolean":
      return (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">(no value)</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      );
    case "Enumeration":
      return (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">(no value)</option>
          {type.enumOptions.map((o) => (
            <option key={o.value} value={o.value}>
              {o.description ? `${o.value} — ${o.description}` : o.value}
            </option>
          ))}
        </select>
      );
    case "Numeric":
    case "Metered":
      return (
        <input
          id={id}
          inputMode="decimal"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={type.featureType === "Metered" ? "quota, e.g. 1000" : "a number"}
        />
      );
    case "JsonField":
      return (
        <textarea
          id={id}
          rows={4}
          className="mono"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder='{"key": "value"}'
        />
      );
    default:
      return <input id={id} value={value} onChange={(e) => onChange(e.target.value)} />;
  }
}

/** How a stored value reads in a table. */
export function FeatureValueText({ value }: { value: string | null }) {
  if (value === null) return <span className="muted">no value</span>;
  if (value === "") return <span className="muted">(empty)</span>;
  return <span className="value-code">{value.length > 60 ? `${value.slice(0, 60)}…` : value}</span>;
}
