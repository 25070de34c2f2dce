"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import {
  subscriptionStates,
  type TSubscriptionResponse,
} from "@/server/domain/webhooks/subscriptions/subscription.schemas";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { sieveValue } from "../ui/sieve";
import { useListState } from "../ui/use-list-state";
import { ListTable, SearchFilter, SelectFilter } from "../ui/list-controls";
import { Patterns, StateBadge } from "./webhook-badges";
import { SubscriptionFormDialog } from "./subscription-form-dialog";
import { SecretDialog } from "./secret-dialog";
import { ExportCsvLink } from "../operations/export-link";

/** Every subscription of the tenant (both surfaces): filter, sort, page, create. */
export function SubscriptionsTable() {
  const trpc = useTRPC();
  const router = useRouter();
  const view = useListState({
    filters: { q: "", state: "" },
    terms: (f) => [f.q && `displayName|url@=*${sieveValue(f.q)}`],
  });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ id: string; secret: string } | null>(null);
  const list = useQuery({
    ...trpc.webhooks.list.queryOptions({
      ...view.query,
      state: (view.settled.state || undefined) as TSubscriptionResponse["state"] | undefined,
    }),
    placeholderData: keepPreviousData,
  });

  const columns: Column<TSubscriptionResponse>[] = [
    {
      key: "name",
      header: "Name",
      sortField: "displayName",
      render: (s) => (
        <Link href={`/admin/webhooks/subscriptions/${s.id}`}>
          <strong>{s.displayName}</strong>
        </Link>
      ),
    },
    {
      key: "kind",
      header: "Kind",
      sortField: "targetKind",
      render: (s) => <span className="badge">{s.targetKind}</span>,
    },
    {
      key: "target",
      header: "Endpoint",
      render: (s) =>
        s.url ? (
          <code className="small">{s.url}</code>
        ) : (
          <span className="muted">captured in the viewer</span>
        ),
    },
    { key: "state", header: "State", sortField: "state", render: (s) => <StateBadge state={s.state} /> },
    { key: "types", header: "Event types", render: (s) => <Patterns patterns={s.eventTypePatterns} /> },
    {
      key: "via",
      header: "Created via",
      sortField: "createdVia",
      render: (s) => <span className="muted">{s.createdVia}</span>,
    },
    {
      key: "created",
      header: "Created",
      sortField: "createdAt",
      render: (s) => <span className="nowrap">{formatDateTime(s.createdAt)}</span>,
    },
  ];

  return (
    <>
      <div className="toolbar">
        <SearchFilter
          view={view}
          name="q"
          label="Filter by name or URL"
          placeholder="Filter by name or URL…"
        />
        <SelectFilter view={view} name="state" label="State" any="All states" options={subscriptionStates} />
        <span className="toolbar-spacer" />
        <ExportCsvLink
          list="webhook-subscriptions"
          query={view.query}
          pending={view.pending}
          extra={{ state: view.settled.state || undefined }}
        />
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          New subscription
        </button>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <ListTable
        view={view}
        list={list}
        caption="Webhook subscriptions"
        columns={columns}
        rowKey={(s) => s.id}
        empty={
          view.isFiltered
            ? "No subscription matches this filter."
            : "No subscriptions yet. An Http subscription delivers signed events to your endpoint; a Capture subscription records them for inspection."
        }
      />
      {creating ? (
        <SubscriptionFormDialog
          onClose={() => setCreating(false)}
          onCreated={(sub) => {
            setCreating(false);
            if (sub.secret) setCreated({ id: sub.id, secret: sub.secret });
            else router.push(`/admin/webhooks/subscriptions/${sub.id}`);
          }}
        />
      ) : null}
      {created ? (
        <SecretDialog
          title="Subscription created"
          secret={created.secret}
          onClose={() => router.push(`/admin/webhooks/subscriptions/${created.id}`)}
        />
      ) : null}
    </>
  );
}
