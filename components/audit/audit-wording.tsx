import type { TAuditEventResponse } from "@/server/domain/audit/audit-event.schemas";
import { formatDate } from "../ui/format";

type AuditEvent = Pick<
  TAuditEventResponse,
  "source" | "actorKind" | "actorLabel" | "operation" | "action" | "changes"
>;

/** Through which door a change came, as staff say it: "Back office", "REST API: client X", "CLI". */
export function viaLabel(e: AuditEvent): string {
  if (e.source === "trpc") return "Back office";
  if (e.source === "cli") return "CLI";
  if (e.actorKind === "client") return `REST API: client ${e.actorLabel ?? "unknown"}`;
  if (e.actorKind === "license") return "REST API: licensed application";
  return "REST API";
}

const isoDate = (v: unknown) =>
  typeof v === "string" && !Number.isNaN(Date.parse(v)) ? formatDate(v) : null;

/** A row's action in plain language: "Renewed until 12 Dec 2027", "Published", "Changed name, seats". */
export function plainAction(e: AuditEvent): string {
  const changes = e.changes ?? {};
  const renewedUntil = isoDate(changes.expirationDateTime?.to);
  if (/(^|\.|\/)renew(Many)?$/.test(e.operation) && renewedUntil) return `Renewed until ${renewedUntil}`;
  if (e.action.endsWith(".created")) return "Created";
  if (e.action.endsWith(".deleted")) return "Deleted";
  const status = changes.status?.to;
  if (typeof status === "string") return status === "Archived" ? "Archived" : `Status set to ${status}`;
  const fields = Object.keys(changes).filter((f) => f !== "revisionNumber" && f !== "updatedAt");
  return fields.length ? `Changed ${fields.join(", ")}` : "Changed";
}

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
