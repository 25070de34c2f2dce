"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TOfferResponse } from "@/server/domain/entitlements/offer.schemas";
import { useTRPC } from "../trpc-provider";
import { DataTable, Pager, nextSort, sortOrderOf, type Column, type SortState } from "../data-table";
import { ProblemAlert } from "../problem-alert";
import { problemFrom } from "../problem";
import { formatDateTime } from "../format";
import { sieveFilter, sieveValue } from "../sieve";
import { useDebounced } from "../use-debounced";
import { StatusBadge } from "../pricing/status-badge";
import { OfferCreateDialog } from "./offer-create-dialog";

/** Offers: the templates entitlements are made from. Draft offers are published from here. */
export function OffersTable() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState("");
  const [sort, setSort] = useState<SortState>(null);
  const [pageNumber, setPageNumber] = useState(1);
  const [creating, setCreating] = useState(false);
  const term = useDebounced(search.trim());
  const list = useQuery({
    ...trpc.entitlements.offers.queryOptions({
      filter: sieveFilter(term && `name@=*${sieveValue(term)}`, status && `status==${status}`),
      sortOrder: sortOrderOf(sort),
      pageNumber,
      pageSize: 20,
    }),
    placeholderData: keepPreviousData,
  });
  const publish = useMutation(trpc.entitlements.publishOffer.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() }) }));
  const columns: Column<TOfferResponse>[] = [
    { key: "name", header: "Offer", sortField: "name", render: (o) => <strong>{o.name}</strong> },
    { key: "status", header: "Status", sortField: "status", render: (o) => <StatusBadge status={o.status} /> },
    { key: "version", header: "Version", sortField: "version", align: "right", render: (o) => o.version },
    { key: "products", header: "Products", render: (o) => o.products.map((p) => p.name ?? p.id).join(", ") || <span className="muted">none</span> },
    { key: "plan", header: "Plan", render: (o) => o.planName ?? <span className="muted">none</span> },
    { key: "trial", header: "Trial", render: (o) => (o.isEntitlementTrial ? `yes${o.validityDays ? ` (${o.validityDays} days)` : ""}` : "no") },
    { key: "updated", header: "Updated", sortField: "updatedAt", render: (o) => formatDateTime(o.updatedAt) },
    {
      key: "actions", header: "",
      render: (o) => (o.status === "Draft"
        ? <button type="button" className="btn btn-small" disabled={publish.isPending} onClick={() => publish.mutate({ id: o.id })}>Publish</button>
        : null),
    },
  ];
  return (
    <>
      <div className="toolbar">
        <input type="search" aria-label="Filter by name" placeholder="Filter by name…" value={search} onChange={(e) => { setSearch(e.target.value); setPageNumber(1); }} />
        <select aria-label="Status" value={status} onChange={(e) => { setStatus(e.target.value); setPageNumber(1); }}>
          <option value="">All statuses</option>
          {["Draft", "Published", "Archived"].map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
        <span className="toolbar-spacer" />
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>New offer</button>
      </div>
      <ProblemAlert problem={problemFrom(list.error ?? publish.error)} onDismiss={() => publish.reset()} />
      <DataTable
        caption="Offers"
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(o) => o.id}
        sort={sort}
        onSort={(field) => { setSort(nextSort(sort, field)); setPageNumber(1); }}
        loading={list.isLoading}
        empty={term || status ? "No offer matches this filter." : "No offers yet. An offer is a template entitlements are made from."}
      />
      <Pager page={list.data} onPage={setPageNumber} />
      {creating ? <OfferCreateDialog onClose={() => setCreating(false)} /> : null}
    </>
  );
}
