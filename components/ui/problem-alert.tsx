import { fieldIssueSentence, plainDetail, problemSentence } from "./form/messages";
import type { ProblemJson } from "./problem";

/**
 * Shows a refusal in plain words (the message catalogue, components/ui/form/messages.ts): what
 * happened and how to fix it, the server's detail when it is plain, each field's sentence. No
 * codeName, path or zod wording reaches the page.
 */
export function ProblemAlert({
  problem,
  onDismiss,
}: {
  problem: ProblemJson | null;
  onDismiss?: () => void;
}) {
  if (!problem) return null;
  const detail = plainDetail(problem);
  const errors = [...new Set((problem.errors ?? []).map((e) => fieldIssueSentence(e, problem.codeName)))];
  return (
    <div className="alert alert-error" role="alert" data-testid="problem" data-code={problem.codeName}>
      <div className="alert-head">
        <strong>{problemSentence(problem)}</strong>
        {onDismiss ? (
          <button type="button" className="btn-icon" aria-label="Dismiss" onClick={onDismiss}>
            ×
          </button>
        ) : null}
      </div>
      {detail ? <p className="alert-detail">{detail}</p> : null}
      {errors.length ? (
        <ul className="alert-errors">
          {errors.map((sentence) => (
            <li key={sentence}>{sentence}</li>
          ))}
        </ul>
      ) : null}
      {problem.correlationId && problem.status >= 500 ? (
        <p className="muted small">Reference for support: {problem.correlationId}</p>
      ) : null}
    </div>
  );
}
