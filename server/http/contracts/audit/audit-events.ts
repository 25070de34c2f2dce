import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import { ZAuditEventResponse } from "../../../domain/audit/audit-event.schemas.ts";

export const listAuditEventsContract = defineContract({
  method: "GET",
  path: "/api/v1/provision/admin/audit-events",
  tag: "Audit",
  summary:
    "The tenant's audit trail: every change made through the REST API, the back office or the CLI, one row per changed record, newest first",
  description:
    "Who (actorKind user, client, license or system, actorId, actorLabel), what (action `<entityKind>.created|updated|deleted`, entityKind, entityId, and the request as operation), when (occurredAt), correlationId, and for updates the changed fields as `{ from, to }` (secrets, tokens, codes and fingerprints only `{ redacted: true }`). Filterable and sortable (Sieve): occurredAt, actorKind, actorId, actorLabel, source (rest, trpc, cli), operation, action, entityKind, entityId, correlationId. Runtime session calls (activation, renew, check-in, release, usage) are recorded by their events and ledgers, not here. Rows are kept AUDIT_RETENTION_DAYS (365 by default).",
  auth: clientScope("audit"),
  query: ZListQuery,
  response: ZPage(ZAuditEventResponse),
  errors: ["auth.unauthenticated", "auth.insufficient_scope", "license.validation_error"],
});
