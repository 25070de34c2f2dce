"use client";

import { useId, useState } from "react";
import "./picker.css";

export type PickerOption = { id: string; label: string; hint?: string };

/**
 * Chooses one record by searching for it by name (never by typing its id): a search box whose
 * matches are listed below it; the chosen record shows by name with a way to clear it. The caller
 * runs the search (`term` → `options`) and names the chosen record (`selectedLabel`).
 */
export function EntityPicker({
  label,
  placeholder,
  value,
  selectedLabel,
  term,
  onTerm,
  options,
  loading,
  onChange,
  hideLabel,
}: {
  label: string;
  placeholder: string;
  value: string;
  selectedLabel: string | null;
  term: string;
  onTerm: (term: string) => void;
  options: PickerOption[];
  loading: boolean;
  onChange: (id: string) => void;
  hideLabel?: boolean;
}) {
  const inputId = useId();
  const listId = useId();
  const [open, setOpen] = useState(false);
  if (value)
    return (
      <div className="picker picker-chosen">
        <span className={hideLabel ? "sr-only" : "picker-label"}>{label}</span>
        <span className="chip" data-testid="picker-choice">
          {selectedLabel ?? "…"}
          <button
            type="button"
            className="btn-icon"
            aria-label={`Clear ${label.toLowerCase()}`}
            onClick={() => {
              onChange("");
              onTerm("");
            }}
          >
            ×
          </button>
        </span>
      </div>
    );
  const showList = open && term.trim().length > 0;
  return (
    <div className="picker">
      <label htmlFor={inputId} className={hideLabel ? "sr-only" : "picker-label"}>
        {label}
      </label>
      <input
        id={inputId}
        type="search"
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        autoComplete="off"
        placeholder={placeholder}
        value={term}
        onChange={(e) => {
          onTerm(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
      />
      {showList ? (
        <ul id={listId} role="listbox" aria-label={`${label} matches`} className="picker-list">
          {options.map((o) => (
            <li
              key={o.id}
              role="option"
              aria-selected={false}
              tabIndex={-1}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                onChange(o.id);
                setOpen(false);
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  onChange(o.id);
                  setOpen(false);
                }
              }}
            >
              {o.label}
              {o.hint ? <span className="muted small"> · {o.hint}</span> : null}
            </li>
          ))}
          {!options.length ? (
            <li className="muted" role="presentation">
              {loading ? "Searching…" : "No match."}
            </li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}
