"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { deliveryStatuses, type TDeliverySummary } from "@/server/domain/webhooks/delivery/delivery.schemas";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { sieveValue } from "../ui/sieve";
import { useListState } from "../ui/use-list-state";
import { ListTable, SearchFilter, SelectFilter } from "../ui/list-controls";
import { DeliveryStatus } from "./webhook-badges";
import { DeliveryDetailDialog } from "./delivery-detail-dialog";
import { ExportCsvLink } from "../operations/export-link";

/**
 * Delivery history (tenant-wide, or one subscription's), or the dead-letter queue with requeue.
 */
export function DeliveriesTable({
  subscriptionId,
  deadLetters = false,
}: {
  subscriptionId?: string;
  deadLetters?: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view = useListState({
    filters: { status: "", eventType: "" },
    terms: (f) => [
      subscriptionId && `subscriptionId==${subscriptionId}`,
      f.status && `status==${f.status}`,
      f.eventType && `eventType@=*${sieveValue(f.eventType)}`,
    ],
  });
  const [open, setOpen] = useState<TDeliverySummary | null>(null);
  const list = useQuery({
    ...(deadLetters
      ? trpc.webhooks.deadLetters.queryOptions(view.query)
      : trpc.webhooks.deliveries.queryOptions(view.query)),
    placeholderData: keepPreviousData,
  });
  const requeue = useMutation(
    trpc.webhooks.requeue.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() }),
    }),
  );

  const columns: Column<TDeliverySummary>[] = [
    { key: "type", header: "Event type", sortField: "eventType", render: (d) => <code>{d.eventType}</code> },
    {
      key: "status",
      header: "Status",
      sortField: "status",
      render: (d) => <DeliveryStatus status={d.status} />,
    },
    {
      key: "attempts",
      header: "Attempts",
      sortField: "attemptCount",
      align: "right",
      render: (d) => d.attemptCount,
    },
    {
      key: "http",
      header: "Last HTTP",
      sortField: "lastResponseStatus",
      align: "right",
      render: (d) => d.lastResponseStatus ?? "—",
    },
    {
      key: "error",
      header: "Last error",
      render: (d) =>
        d.lastError ? <span className="small">{d.lastError}</span> : <span className="muted">—</span>,
    },
    ...(subscriptionId
      ? []
      : [
          {
            key: "sub",
            header: "Subscription",
            render: (d: TDeliverySummary) => (
              <Link href={`/admin/webhooks/subscriptions/${d.subscriptionId}`}>open</Link>
            ),
          },
        ]),
    {
      key: "created",
      header: "Created",
      sortField: "createdAt",
      render: (d) => (
        <span className="nowrap">
          {formatDateTime(d.createdAt)}
          {d.isTest ? <span className="badge badge-muted">test</span> : null}
          {d.replayOf ? <span className="badge badge-muted">replay</span> : null}
        </span>
      ),
    },
    {
      key: "actions",
      header: "",
      render: (d) => (
        <span className="row-actions">
          <button type="button" className="btn btn-small" onClick={() => setOpen(d)}>
            Attempts
          </button>
          {d.status === "dead" ? (
            <button
              type="button"
              className="btn btn-small"
              disabled={requeue.isPending}
              onClick={() => requeue.mutate({ deliveryId: d.id })}
            >
              Requeue
            </button>
          ) : null}
        </span>
      ),
    },
  ];

  return (
    <>
      <div className="toolbar">
        <SearchFilter
          view={view}
          name="eventType"
          label="Filter by event type"
          placeholder="Filter by event type…"
        />
        {deadLetters ? null : (
          <SelectFilter
            view={view}
            name="status"
            label="Status"
            any="All statuses"
            options={deliveryStatuses}
          />
        )}
        <span className="toolbar-spacer" />
        <ExportCsvLink
          list={deadLetters ? "webhook-dead-letters" : "webhook-deliveries"}
          query={view.query}
          pending={view.pending}
        />
        <button type="button" className="btn btn-ghost btn-small" onClick={() => list.refetch()}>
          Refresh
        </button>
      </div>
      <ProblemAlert problem={problemFrom(list.error ?? requeue.error)} />
      <ListTable
        view={view}
        list={list}
        caption={deadLetters ? "Dead letters" : "Deliveries"}
        columns={columns}
        rowKey={(d) => d.id}
        empty={
          deadLetters
            ? "No dead letters: every delivery got through or is still being retried."
            : "No deliveries yet."
        }
      />
      {open ? (
        <DeliveryDetailDialog
          envelopeId={open.envelopeId}
          subscriptionId={open.subscriptionId}
          onClose={() => setOpen(null)}
        />
      ) : null}
    </>
  );
}
