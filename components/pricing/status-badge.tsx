/** The status of a plan-set revision or an add-on, coloured by what it means for customers. */
export function StatusBadge({ status }: { status: string }) {
  const tone = status === "Published" ? "badge-ok" : status === "Draft" ? "badge-draft" : "badge-muted";
  return (
    <span className={`badge ${tone}`} data-testid="status-badge">
      {status}
    </span>
  );
}
