"use client";

const HEX = /^#[0-9a-fA-F]{6}$/;

/** A colour picker beside a hex text input; either edits the same `#rrggbb` value ("" = none). */
export function ColorInput({
  id,
  value,
  onChange,
  label = "Colour",
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  label?: string;
}) {
  return (
    <div className="color-input">
      <input
        type="color"
        aria-label={`${label} picker`}
        value={HEX.test(value) ? value.toLowerCase() : "#888888"}
        onChange={(e) => onChange(e.target.value)}
      />
      <input
        id={id}
        type="text"
        className="mono"
        placeholder="#rrggbb"
        maxLength={7}
        value={value}
        onChange={(e) => onChange(e.target.value.trim())}
      />
      {value ? (
        <button type="button" className="btn btn-ghost btn-small" onClick={() => onChange("")}>
          No colour
        </button>
      ) : null}
    </div>
  );
}

export function ColorSwatch({ color }: { color: string | null }) {
  return (
    <span
      className={`swatch${color ? "" : " swatch-none"}`}
      style={color ? { background: color } : undefined}
      aria-hidden="true"
    />
  );
}
