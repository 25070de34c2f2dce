"use client";

import { useFormState, type FieldErrors } from "react-hook-form";
import type { ProblemJson } from "../problem";
import { controlId, useKit } from "./kit-context";
import { plainDetail, problemSentence, withLabel } from "./messages";

/** Field errors as name → sentence template, nested errors flattened to dotted names. */
function flatten(errors: FieldErrors, prefix = ""): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(errors)) {
    if (!value || key === "ref") continue;
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value.message === "string" && value.message) out.push([name, value.message]);
    else if (typeof value === "object") out.push(...flatten(value as FieldErrors, name));
  }
  return out;
}

/**
 * The top of a form after a refused submit (GOV.UK's error summary): what happened in one plain
 * sentence, then each field's sentence linking to the field. Used by `Form`; usable alone.
 */
export function ProblemSummary({ problem }: { problem: ProblemJson | null }) {
  const { formId, labels } = useKit();
  const { errors, submitCount } = useFormState();
  const fieldErrors = flatten(errors);
  if (!problem && (fieldErrors.length === 0 || submitCount === 0)) return null;
  const detail = problem ? plainDetail(problem) : null;
  return (
    <div
      className="alert alert-error"
      role="alert"
      data-testid="problem"
      // For tests, as ProblemAlert does; a refusal found before sending is the API's validation error.
      data-code={problem ? problem.codeName : "license.validation_error"}
    >
      <p className="alert-title">
        <strong>
          {problem ? problemSentence(problem) : "Some values need correcting. Check the fields below."}
        </strong>
      </p>
      {detail ? <p className="alert-detail">{detail}</p> : null}
      {fieldErrors.length ? (
        <ul className="alert-errors">
          {fieldErrors.map(([name, message]) => (
            <li key={name}>
              <a href={`#${controlId(formId, name)}`}>{withLabel(message, labels.get(name))}</a>
            </li>
          ))}
        </ul>
      ) : null}
      {problem?.correlationId && problem.status >= 500 ? (
        <p className="muted small">Reference for support: {problem.correlationId}</p>
      ) : null}
    </div>
  );
}
