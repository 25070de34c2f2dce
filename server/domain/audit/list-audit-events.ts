import type { DomainContext } from "../context.ts";
import type { TListQuery } from "../../core/pagination.ts";
import { listPage } from "../../db/list-page.ts";
import type { SieveWhitelist } from "../../db/sieve-where.ts";
import { auditActorKinds, auditSources, type TAuditEventResponse } from "./audit-event.schemas.ts";

export const auditEventSieve: SieveWhitelist = {
  occurredAt: { type: "date" },
  actorKind: { type: "enum", values: auditActorKinds },
  actorId: { type: "string" },
  actorLabel: { type: "string", nullable: true },
  source: { type: "enum", values: auditSources },
  operation: { type: "string" },
  action: { type: "string" },
  entityKind: { type: "string" },
  entityId: { type: "string" },
  correlationId: { type: "string", nullable: true },
};

export type AuditRow = {
  id: string;
  occurredAt: Date;
  actorKind: string;
  actorId: string;
  actorLabel: string | null;
  source: string;
  operation: string;
  action: string;
  entityKind: string;
  entityId: string;
  correlationId: string | null;
  changes: unknown;
};

export function toAuditEventResponse(row: AuditRow): TAuditEventResponse {
  return {
    id: row.id,
    occurredAt: row.occurredAt.toISOString(),
    actorKind: row.actorKind as TAuditEventResponse["actorKind"],
    actorId: row.actorId,
    actorLabel: row.actorLabel,
    source: row.source as TAuditEventResponse["source"],
    operation: row.operation,
    action: row.action,
    entityKind: row.entityKind,
    entityId: row.entityId,
    correlationId: row.correlationId,
    changes: (row.changes ?? null) as TAuditEventResponse["changes"],
  };
}

/** The tenant's audit trail, newest first unless the query sorts otherwise. */
export async function listAuditEvents(ctx: DomainContext, query: TListQuery) {
  return listPage(
    query,
    {
      sieve: auditEventSieve,
      defaultOrder: [{ occurredAt: "desc" }],
      tieBreaker: { id: "desc" },
      findMany: (args) => ctx.db.auditEvent.findMany(args),
      count: (args) => ctx.db.auditEvent.count(args),
    },
    (rows) => rows.map(toAuditEventResponse),
  );
}
