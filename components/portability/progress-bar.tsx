/** A progress bar; without a total it shows that work is going on without saying how much. */
export function ProgressBar({
  label,
  done,
  total,
  detail,
}: {
  label: string;
  done?: number;
  total?: number;
  detail?: string;
}) {
  const known = total !== undefined && total > 0 && done !== undefined;
  const percent = known ? Math.min(100, Math.round((done / total) * 100)) : 0;
  return (
    <div className="progress" data-testid="progress">
      <div className="progress-label">
        <span>{label}</span>
        <span>{detail ?? (known ? `${percent}%` : "")}</span>
      </div>
      <div
        className={`progress-track${known ? "" : " indeterminate"}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={known ? percent : undefined}
      >
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
