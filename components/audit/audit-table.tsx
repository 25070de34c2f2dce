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
import { AuditChanges, plainAction, viaLabel } from "./audit-wording";
import { AuditEntityLink } from "./entity-link";
import "./audit.css";

/** The tenant's audit trail: who changed what, when, through which door; newest first. */
export function AuditTable() {
  const trpc = useTRPC();
  const view = useListState({
    // `entityId` is set by links from a record's page, never typed.
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
  const refs = (list.data?.items ?? []).map((e) => ({ entityKind: e.entityKind, entityId: e.entityId }));
  const names = useQuery({ ...trpc.audit.entityNames.queryOptions({ refs }), enabled: refs.length > 0 });
  const nameOf = (e: TAuditEventResponse) =>
    names.data?.find((n) => n.entityKind === e.entityKind && n.entityId === e.entityId)?.name;
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
    {
      key: "action",
      header: "Action",
      sortField: "action",
      render: (e) => <strong title={e.action}>{plainAction(e)}</strong>,
    },
    {
      key: "entity",
      header: "Record",
      render: (e) => <AuditEntityLink kind={e.entityKind} id={e.entityId} name={nameOf(e)} />,
    },
    {
      key: "via",
      header: "Via",
      sortField: "source",
      render: (e) => (
        <span className="small" title={e.correlationId ? `correlation id ${e.correlationId}` : undefined}>
          {viaLabel(e)}
          <br />
          <code className="muted">{e.operation}</code>
        </span>
      ),
    },
    { key: "changes", header: "Changes", render: (e) => <AuditChanges changes={e.changes} /> },
  ];
  return (
    <>
      <div className="toolbar">
        <SearchFilter
          view={view}
          name="actor"
          label="Filter by who"
          placeholder="Who (name, email or API client)…"
        />
        <SearchFilter
          view={view}
          name="action"
          label="Filter by action"
          placeholder="Action (user.updated)…"
        />
        <SelectFilter
          view={view}
          name="source"
          label="Source"
          any="Any source"
          options={[
            ["trpc", "Back office"],
            ["rest", "REST API"],
            ["cli", "CLI"],
          ]}
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
