"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { addOnStatuses, type TAddOnResponse } from "@/server/domain/catalog/add-on.schemas";
import { useTRPC } from "../trpc-provider";
import { DataTable, Pager, nextSort, sortOrderOf, type Column, type SortState } from "../data-table";
import { ProblemAlert } from "../problem-alert";
import { problemFrom } from "../problem";
import { formatDateTime } from "../format";
import { sieveFilter, sieveValue } from "../sieve";
import { useDebounced } from "../use-debounced";
import { StatusBadge } from "./status-badge";
import { AddOnCreateDialog } from "./add-on-create-dialog";

const PAGE_SIZE = 20;

export function AddOnsTable() {
  const trpc = useTRPC();
  const router = useRouter();
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState("");
  const [sort, setSort] = useState<SortState>({ field: "name", descending: false });
  const [pageNumber, setPageNumber] = useState(1);
  const [creating, setCreating] = useState(false);
  const term = useDebounced(search.trim());
  const list = useQuery({
    ...trpc.addOns.list.queryOptions({
      filter: sieveFilter(term && `name|code@=*${sieveValue(term)}`, status && `status==${status}`),
      sortOrder: sortOrderOf(sort),
      pageNumber,
      pageSize: PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });
  const columns: Column<TAddOnResponse>[] = [
    { key: "name", header: "Add-on", sortField: "name", render: (a) => <Link href={`/admin/add-ons/${a.id}`}>{a.name}</Link> },
    { key: "code", header: "Code", sortField: "code", render: (a) => <code>{a.code}</code> },
    { key: "suite", header: "Suite", sortField: "suiteName", render: (a) => <Link href={`/admin/suites/${a.suiteId}`}>{a.suiteName}</Link> },
    { key: "status", header: "Status", sortField: "status", render: (a) => <StatusBadge status={a.status} /> },
    { key: "features", header: "Features", render: (a) => a.features.map((f) => f.name ?? f.featureCatalogId).join(", ") || <span className="muted">none</span> },
    { key: "updated", header: "Updated", sortField: "updatedAt", render: (a) => formatDateTime(a.updatedAt) },
  ];
  return (
    <>
      <div className="toolbar">
        <input type="search" aria-label="Filter by name or code" placeholder="Filter by name or code…" value={search} onChange={(e) => { setSearch(e.target.value); setPageNumber(1); }} />
        <select aria-label="Status" value={status} onChange={(e) => { setStatus(e.target.value); setPageNumber(1); }}>
          <option value="">All statuses</option>
          {addOnStatuses.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
        <span className="toolbar-spacer" />
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>New add-on</button>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <DataTable
        caption="Add-ons"
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(a) => a.id}
        sort={sort}
        onSort={(field) => { setSort(nextSort(sort, field)); setPageNumber(1); }}
        loading={list.isLoading}
        empty={term || status ? "No add-on matches this filter." : "No add-ons yet. An add-on adjusts features of a suite's plans for the entitlements it is granted to."}
      />
      <Pager page={list.data} onPage={setPageNumber} />
      {creating ? <AddOnCreateDialog onClose={() => setCreating(false)} onCreated={(a) => router.push(`/admin/add-ons/${a.id}`)} /> : null}
    </>
  );
}
