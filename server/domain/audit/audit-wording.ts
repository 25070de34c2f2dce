import { formatDate } from "../../core/format.ts";
import type { TAuditEventResponse } from "./audit-event.schemas.ts";

/** The facts of an audit row its wording reads. */
export type AuditWordingFacts = Pick<
  TAuditEventResponse,
  "source" | "actorKind" | "actorLabel" | "operation" | "action" | "changes"
>;

/** Through which door a change came, as staff say it: "Back office", "REST API: client X", "CLI". */
export function viaLabel(e: AuditWordingFacts): string {
  if (e.source === "trpc") return "Back office";
  if (e.source === "cli") return "CLI";
  if (e.actorKind === "client") return `REST API: client ${e.actorLabel ?? "unknown"}`;
  if (e.actorKind === "license") return "REST API: licensed application";
  return "REST API";
}

const isoDate = (v: unknown) =>
  typeof v === "string" && !Number.isNaN(Date.parse(v)) ? formatDate(v) : null;

/** A stored field's name as words: "featureOverrides" → "feature overrides". */
const fieldWords = (field: string) => field.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();

/** A row's action in plain language: "Renewed until 12 Dec 2027", "Published", "Changed name, feature overrides". */
export function plainAction(e: AuditWordingFacts): string {
  const changes = e.changes ?? {};
  const renewedUntil = isoDate(changes.expirationDateTime?.to);
  if (/(^|\.|\/)renew(Many)?$/.test(e.operation) && renewedUntil) return `Renewed until ${renewedUntil}`;
  if (e.action.endsWith(".created")) return "Created";
  if (e.action.endsWith(".deleted")) return "Deleted";
  const status = changes.status?.to;
  if (typeof status === "string") return status === "Archived" ? "Archived" : `Status set to ${status}`;
  const fields = Object.keys(changes).filter((f) => f !== "revisionNumber" && f !== "updatedAt");
  return fields.length ? `Changed ${fields.map(fieldWords).join(", ")}` : "Changed";
}
