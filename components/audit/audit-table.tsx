"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { TAuditEventResponse } from "@/server/domain/audit/audit-event.schemas";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { sieveValue } from "../ui/sieve";
import { useListState } from "../ui/use-list-state";
import { ListTable, SearchFilter, SelectFilter } from "../ui/list-controls";

const value = (v: unknown) =>
  v === null || v === undefined ? "∅" : typeof v === "string" ? v : JSON.stringify(v);

/** One row's field-level diff: `field: from → to`, secrets only as "changed". */
function Changes({ changes }: { changes: TAuditEventResponse["changes"] }) {
  if (!changes) return <span className="muted">–</span>;
  return (
    <ul className="audit-changes">
      {Object.entries(changes).map(([field, change]) => (
        <li key={field}>
          <code>{field}</code>:{" "}
          {change.redacted ? (
            <span className="muted">changed (not recorded)</span>
          ) : (
            <>
              <span className="audit-from">{value(change.from)}</span> →{" "}
              <span className="audit-to">{value(change.to)}</span>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The tenant's audit trail: who changed what, when, through which door; newest first. */
export function AuditTable() {
  const trpc = useTRPC();
  const view = useListState({
    filters: { actor: "", action: "", entityId: "", source: "", actorKind: "" },
    sort: { field: "occurredAt", descending: true },
    terms: (f) => [
      f.actor && `actorLabel@=*${sieveValue(f.actor)}`,
      f.action && `action@=*${sieveValue(f.action)}`,
      f.entityId && `entityId==${sieveValue(f.entityId)}`,
      f.source && `source==${f.source}`,
      f.actorKind && `actorKind==${f.actorKind}`,
    ],
  });
  const list = useQuery({ ...trpc.audit.list.queryOptions(view.query), placeholderData: keepPreviousData });
  const columns: Column<TAuditEventResponse>[] = [
    {
      key: "when",
      header: "When",
      sortField: "occurredAt",
      render: (e) => <span className="nowrap">{formatDateTime(e.occurredAt)}</span>,
    },
    {
      key: "who",
      header: "Who",
      sortField: "actorLabel",
      render: (e) => (
        <span title={`${e.actorKind} ${e.actorId}`}>
          <span className="badge">{e.actorKind}</span> {e.actorLabel ?? <code>{e.actorId}</code>}
        </span>
      ),
    },
    { key: "action", header: "Action", sortField: "action", render: (e) => <strong>{e.action}</strong> },
    {
      key: "entity",
      header: "Entity",
      sortField: "entityId",
      render: (e) => <code className="small">{e.entityId}</code>,
    },
    {
      key: "via",
      header: "Via",
      sortField: "operation",
      render: (e) => (
        <span className="small" title={e.correlationId ? `correlation id ${e.correlationId}` : undefined}>
          {e.source}: <code>{e.operation}</code>
        </span>
      ),
    },
    { key: "changes", header: "Changes", render: (e) => <Changes changes={e.changes} /> },
  ];
  return (
    <>
      <div className="toolbar">
        <SearchFilter view={view} name="actor" label="Filter by who" placeholder="Who (email, client id)…" />
        <SearchFilter
          view={view}
          name="action"
          label="Filter by action"
          placeholder="Action (user.updated)…"
        />
        <SearchFilter view={view} name="entityId" label="Entity id" placeholder="Entity id" immediate />
        <SelectFilter
          view={view}
          name="source"
          label="Source"
          any="Any source"
          options={["rest", "trpc", "cli"]}
        />
        <SelectFilter
          view={view}
          name="actorKind"
          label="Actor kind"
          any="Any actor"
          options={["user", "client", "system"]}
        />
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <ListTable
        view={view}
        list={list}
        caption="Audit trail"
        columns={columns}
        rowKey={(e) => e.id}
        empty={view.isFiltered ? "No change matches this filter." : "No changes recorded yet."}
      />
    </>
  );
}
