import type { TAuditEventResponse } from "@/server/domain/audit/audit-event.schemas";
import { formatDate } from "../ui/format";

export { plainAction, viaLabel } from "@/server/domain/audit/audit-wording";

const isoDate = (v: unknown) =>
  typeof v === "string" && !Number.isNaN(Date.parse(v)) ? formatDate(v) : null;

const shown = (v: unknown) =>
  v === null || v === undefined
    ? "none"
    : typeof v === "string"
      ? isoDate(v) && /T\d\d:/.test(v)
        ? formatDate(v)
        : v
      : JSON.stringify(v);

/** One row's field-level diff, `field: from → to`, wrapping within its column; secrets only "changed". */
export function AuditChanges({ changes }: { changes: TAuditEventResponse["changes"] }) {
  if (!changes) return <span className="muted">–</span>;
  const entries = Object.entries(changes).filter(
    ([field]) => field !== "revisionNumber" && field !== "updatedAt",
  );
  if (!entries.length) return <span className="muted">–</span>;
  return (
    <ul className="audit-changes">
      {entries.map(([field, change]) => (
        <li key={field}>
          <code>{field}</code>:{" "}
          {change.redacted ? (
            <span className="muted">changed (not recorded)</span>
          ) : (
            <>
              <span className="audit-from">{shown(change.from)}</span> →{" "}
              <span className="audit-to">{shown(change.to)}</span>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
