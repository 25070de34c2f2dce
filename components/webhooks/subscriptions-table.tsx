"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { subscriptionStates, type TSubscriptionResponse } from "@/server/domain/webhooks/subscription.schemas";
import { useTRPC } from "../trpc-provider";
import { DataTable, Pager, nextSort, sortOrderOf, type Column, type SortState } from "../data-table";
import { ProblemAlert } from "../problem-alert";
import { problemFrom } from "../problem";
import { formatDateTime } from "../format";
import { sieveFilter, sieveValue } from "../sieve";
import { useDebounced } from "../use-debounced";
import { Patterns, StateBadge } from "./webhook-badges";
import { SubscriptionFormDialog } from "./subscription-form-dialog";
import { SecretDialog } from "./secret-dialog";

const PAGE_SIZE = 20;

/** Every subscription of the tenant (both surfaces): filter, sort, page, create. */
export function SubscriptionsTable() {
  const trpc = useTRPC();
  const router = useRouter();
  const [search, setSearch] = useState("");
  const [state, setState] = useState("");
  const [sort, setSort] = useState<SortState>(null);
  const [pageNumber, setPageNumber] = useState(1);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ id: string; secret: string } | null>(null);
  const term = useDebounced(search.trim());
  const list = useQuery({
    ...trpc.webhooks.list.queryOptions({
      filter: sieveFilter(term && `displayName|url@=*${sieveValue(term)}`),
      state: (state || undefined) as TSubscriptionResponse["state"] | undefined,
      sortOrder: sortOrderOf(sort),
      pageNumber,
      pageSize: PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });

  const columns: Column<TSubscriptionResponse>[] = [
    { key: "name", header: "Name", sortField: "displayName", render: (s) => <Link href={`/admin/webhooks/subscriptions/${s.id}`}><strong>{s.displayName}</strong></Link> },
    { key: "kind", header: "Kind", sortField: "targetKind", render: (s) => <span className="badge">{s.targetKind}</span> },
    { key: "target", header: "Endpoint", render: (s) => (s.url ? <code className="small">{s.url}</code> : <span className="muted">captured in the viewer</span>) },
    { key: "state", header: "State", sortField: "state", render: (s) => <StateBadge state={s.state} /> },
    { key: "types", header: "Event types", render: (s) => <Patterns patterns={s.eventTypePatterns} /> },
    { key: "via", header: "Created via", sortField: "createdVia", render: (s) => <span className="muted">{s.createdVia}</span> },
    { key: "created", header: "Created", sortField: "createdAt", render: (s) => <span className="nowrap">{formatDateTime(s.createdAt)}</span> },
  ];

  return (
    <>
      <div className="toolbar">
        <input type="search" aria-label="Filter by name or URL" placeholder="Filter by name or URL…" value={search} onChange={(e) => { setSearch(e.target.value); setPageNumber(1); }} />
        <select aria-label="State" value={state} onChange={(e) => { setState(e.target.value); setPageNumber(1); }}>
          <option value="">All states</option>
          {subscriptionStates.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
        <span className="toolbar-spacer" />
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>New subscription</button>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <DataTable
        caption="Webhook subscriptions"
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(s) => s.id}
        sort={sort}
        onSort={(field) => { setSort(nextSort(sort, field)); setPageNumber(1); }}
        loading={list.isLoading}
        empty={term || state ? "No subscription matches this filter." : "No subscriptions yet. An Http subscription delivers signed events to your endpoint; a Capture subscription records them for inspection."}
      />
      <Pager page={list.data} onPage={setPageNumber} />
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
        <SecretDialog title="Subscription created" secret={created.secret} onClose={() => router.push(`/admin/webhooks/subscriptions/${created.id}`)} />
      ) : null}
    </>
  );
}
