"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { deliveryStatuses, type TDeliverySummary } from "@/server/domain/webhooks/delivery.schemas";
import { useTRPC } from "../trpc-provider";
import { DataTable, Pager, nextSort, sortOrderOf, type Column, type SortState } from "../data-table";
import { ProblemAlert } from "../problem-alert";
import { problemFrom } from "../problem";
import { formatDateTime } from "../format";
import { sieveFilter, sieveValue } from "../sieve";
import { useDebounced } from "../use-debounced";
import { DeliveryStatus } from "./webhook-badges";
import { DeliveryDetailDialog } from "./delivery-detail-dialog";

const PAGE_SIZE = 20;

/**
 * Delivery history (tenant-wide, or one subscription's), or the dead-letter queue with requeue.
 */
export function DeliveriesTable({ subscriptionId, deadLetters = false }: { subscriptionId?: string; deadLetters?: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState("");
  const [eventType, setEventType] = useState("");
  const [sort, setSort] = useState<SortState>(null);
  const [pageNumber, setPageNumber] = useState(1);
  const [open, setOpen] = useState<TDeliverySummary | null>(null);
  const type = useDebounced(eventType.trim());
  const input = {
    filter: sieveFilter(subscriptionId && `subscriptionId==${subscriptionId}`, status && `status==${status}`, type && `eventType@=*${sieveValue(type)}`),
    sortOrder: sortOrderOf(sort),
    pageNumber,
    pageSize: PAGE_SIZE,
  };
  const list = useQuery({ ...(deadLetters ? trpc.webhooks.deadLetters.queryOptions(input) : trpc.webhooks.deliveries.queryOptions(input)), placeholderData: keepPreviousData });
  const requeue = useMutation(trpc.webhooks.requeue.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() }) }));

  const columns: Column<TDeliverySummary>[] = [
    { key: "type", header: "Event type", sortField: "eventType", render: (d) => <code>{d.eventType}</code> },
    { key: "status", header: "Status", sortField: "status", render: (d) => <DeliveryStatus status={d.status} /> },
    { key: "attempts", header: "Attempts", sortField: "attemptCount", align: "right", render: (d) => d.attemptCount },
    { key: "http", header: "Last HTTP", sortField: "lastResponseStatus", align: "right", render: (d) => d.lastResponseStatus ?? "—" },
    { key: "error", header: "Last error", render: (d) => (d.lastError ? <span className="small">{d.lastError}</span> : <span className="muted">—</span>) },
    ...(subscriptionId ? [] : [{ key: "sub", header: "Subscription", render: (d: TDeliverySummary) => <Link href={`/admin/webhooks/subscriptions/${d.subscriptionId}`}>open</Link> }]),
    { key: "created", header: "Created", sortField: "createdAt", render: (d) => <span className="nowrap">{formatDateTime(d.createdAt)}{d.isTest ? <span className="badge badge-muted">test</span> : null}{d.replayOf ? <span className="badge badge-muted">replay</span> : null}</span> },
    {
      key: "actions", header: "",
      render: (d) => (
        <span className="row-actions">
          <button type="button" className="btn btn-small" onClick={() => setOpen(d)}>Attempts</button>
          {d.status === "dead" ? (
            <button type="button" className="btn btn-small" disabled={requeue.isPending} onClick={() => requeue.mutate({ deliveryId: d.id })}>Requeue</button>
          ) : null}
        </span>
      ),
    },
  ];

  return (
    <>
      <div className="toolbar">
        <input type="search" aria-label="Filter by event type" placeholder="Filter by event type…" value={eventType} onChange={(e) => { setEventType(e.target.value); setPageNumber(1); }} />
        {deadLetters ? null : (
          <select aria-label="Status" value={status} onChange={(e) => { setStatus(e.target.value); setPageNumber(1); }}>
            <option value="">All statuses</option>
            {deliveryStatuses.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        )}
        <span className="toolbar-spacer" />
        <button type="button" className="btn btn-ghost btn-small" onClick={() => list.refetch()}>Refresh</button>
      </div>
      <ProblemAlert problem={problemFrom(list.error ?? requeue.error)} />
      <DataTable
        caption={deadLetters ? "Dead letters" : "Deliveries"}
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(d) => d.id}
        sort={sort}
        onSort={(field) => { setSort(nextSort(sort, field)); setPageNumber(1); }}
        loading={list.isLoading}
        empty={deadLetters ? "No dead letters: every delivery got through or is still being retried." : "No deliveries yet."}
      />
      <Pager page={list.data} onPage={setPageNumber} />
      {open ? <DeliveryDetailDialog envelopeId={open.envelopeId} subscriptionId={open.subscriptionId} onClose={() => setOpen(null)} /> : null}
    </>
  );
}
