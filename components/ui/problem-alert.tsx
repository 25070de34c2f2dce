import type { ProblemJson } from "./problem";

/** Shows a refusal as the server phrased it: detail, title, codeName and field errors. */
export function ProblemAlert({
  problem,
  onDismiss,
}: {
  problem: ProblemJson | null;
  onDismiss?: () => void;
}) {
  if (!problem) return null;
  return (
    <div className="alert alert-error" role="alert" data-testid="problem">
      <div className="alert-head">
        <strong>{problem.title}</strong>
        {problem.codeName ? (
          <code className="alert-code">
            {problem.codeName}
            {problem.code ? ` · ${problem.code}` : ""}
          </code>
        ) : null}
        {onDismiss ? (
          <button type="button" className="btn-icon" aria-label="Dismiss" onClick={onDismiss}>
            ×
          </button>
        ) : null}
      </div>
      <p className="alert-detail">{problem.detail}</p>
      {problem.errors?.length ? (
        <ul className="alert-errors">
          {problem.errors.map((e, i) => (
            <li key={i}>
              {e.path ? <code>{e.path}</code> : null} {e.message}
            </li>
          ))}
        </ul>
      ) : null}
      {problem.correlationId ? <p className="muted small">Correlation id {problem.correlationId}</p> : null}
    </div>
  );
}
