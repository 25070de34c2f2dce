"use client";

import { useState } from "react";
import {
  INTEGRATOR_SCOPE,
  isValidScopePattern,
  scopeDescriptions,
  scopeMatches,
  scopeResources,
  scopeVerbs,
} from "@/server/domain/identity/scopes";
import "./identity.css";

/**
 * Picks scopes from the catalog (a resource × verb grid) plus free patterns with wildcards
 * (`provision.*`, `provision.product.*`). The value is the flat list of chosen scopes.
 */
export function ScopePicker({
  value,
  onChange,
  disabled,
}: {
  value: string[];
  onChange: (scopes: string[]) => void;
  disabled?: boolean;
}) {
  const [pattern, setPattern] = useState("");
  const [patternError, setPatternError] = useState<string | null>(null);
  const has = (scope: string) => value.includes(scope);
  const toggle = (scope: string) =>
    onChange(has(scope) ? value.filter((s) => s !== scope) : [...value, scope]);
  const catalogSet = new Set(scopeResources.flatMap((r) => scopeVerbs.map((v) => `provision.${r}.${v}`)));
  const patterns = value.filter((s) => !catalogSet.has(s) && s !== INTEGRATOR_SCOPE);
  const coveredBy = (scope: string) => patterns.find((p) => scopeMatches(p, scope));

  function addPattern() {
    const p = pattern.trim();
    if (!p) return;
    if (!isValidScopePattern(p)) {
      setPatternError(`“${p}” matches no scope of the catalog.`);
      return;
    }
    setPatternError(null);
    setPattern("");
    if (!has(p)) onChange([...value, p]);
  }

  function toggleRow(resource: string) {
    const row = scopeVerbs.map((v) => `provision.${resource}.${v}`);
    const all = row.every(has);
    onChange(all ? value.filter((s) => !row.includes(s)) : [...new Set([...value, ...row])]);
  }

  return (
    <fieldset className="scope-picker" disabled={disabled}>
      <legend className="sr-only">Scopes</legend>
      <div className="scope-patterns">
        <input
          aria-label="Scope pattern"
          className="mono"
          placeholder="provision.*  or  provision.product.*"
          value={pattern}
          onChange={(e) => setPattern(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              addPattern();
            }
          }}
        />
        <button type="button" className="btn btn-small" onClick={addPattern}>
          Add pattern
        </button>
      </div>
      {patternError ? <div className="field-error">{patternError}</div> : null}
      {patterns.length ? (
        <div className="chips">
          {patterns.map((p) => (
            <span key={p} className="chip">
              <code>{p}</code>
              <button type="button" className="btn-icon" aria-label={`Remove ${p}`} onClick={() => toggle(p)}>
                ×
              </button>
            </span>
          ))}
        </div>
      ) : null}
      <div className="scope-grid-wrap">
        <table className="scope-grid">
          <thead>
            <tr>
              <th scope="col">Resource</th>
              {scopeVerbs.map((v) => (
                <th key={v} scope="col">
                  {v}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {scopeResources.map((resource) => (
              <tr key={resource}>
                <th scope="row">
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => toggleRow(resource)}
                    title={scopeDescriptions[resource]}
                  >
                    {resource}
                  </button>
                </th>
                {scopeVerbs.map((verb) => {
                  const scope = `provision.${resource}.${verb}`;
                  const pattern = coveredBy(scope);
                  return (
                    <td key={verb} title={pattern ? `Granted by ${pattern}` : undefined}>
                      <input
                        type="checkbox"
                        aria-label={scope}
                        checked={!!pattern || has(scope)}
                        disabled={!!pattern}
                        onChange={() => toggle(scope)}
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </fieldset>
  );
}
