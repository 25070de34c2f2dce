"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { planSetStatuses, type TPlanSetResponse } from "@/server/domain/catalog/plan-set.schemas";
import { useTRPC } from "../trpc-provider";
import { DataTable, Pager, nextSort, sortOrderOf, type Column, type SortState } from "../data-table";
import { ProblemAlert } from "../problem-alert";
import { problemFrom } from "../problem";
import { formatDateTime } from "../format";
import { sieveFilter, sieveValue } from "../sieve";
import { useDebounced } from "../use-debounced";
import { StatusBadge } from "./status-badge";
import { priceLabel } from "./plan-set-form";
import { PlanSetCreateDialog } from "./plan-set-create-dialog";

const PAGE_SIZE = 20;

/** Every plan-set revision, newest first; filter by status, name or suite. */
export function PlanSetsTable() {
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  const suiteId = params.get("suiteId") ?? "";
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState("");
  const [sort, setSort] = useState<SortState>({ field: "revisionDate", descending: true });
  const [pageNumber, setPageNumber] = useState(1);
  const [creating, setCreating] = useState(false);
  const term = useDebounced(search.trim());
  const list = useQuery({
    ...trpc.planSets.list.queryOptions({
      filter: sieveFilter(term && `name|suiteName@=*${sieveValue(term)}`, status && `status==${status}`, /^[0-9a-f-]{36}$/i.test(suiteId) && `suiteId==${suiteId}`),
      sortOrder: sortOrderOf(sort),
      pageNumber,
      pageSize: PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });

  const columns: Column<TPlanSetResponse>[] = [
    { key: "name", header: "Plan set", sortField: "name", render: (p) => <Link href={`/admin/plan-sets/${p.id}`}>{p.name}</Link> },
    {
      key: "suite", header: "Suite", sortField: "suiteName",
      render: (p) => (
        <span className="tag-name">
          <Link href={`/admin/suites/${p.suiteId}`}>{p.suiteName}</Link>
          {p.suiteIsImplicit ? <span className="badge badge-muted">implicit</span> : null}
        </span>
      ),
    },
    { key: "revision", header: "Revision", sortField: "revision", align: "right", render: (p) => p.revision },
    { key: "status", header: "Status", sortField: "status", render: (p) => <StatusBadge status={p.status} /> },
    { key: "plans", header: "Plans", render: (p) => (p.plans.length ? p.plans.map((plan) => `${plan.name} (${priceLabel(plan)})`).join(", ") : <span className="muted">none</span>) },
    { key: "date", header: "Revision date", sortField: "revisionDate", render: (p) => formatDateTime(p.revisionDate) },
  ];

  return (
    <>
      <div className="toolbar">
        <input type="search" aria-label="Filter by name or suite" placeholder="Filter by name or suite…" value={search} onChange={(e) => { setSearch(e.target.value); setPageNumber(1); }} />
        <select aria-label="Status" value={status} onChange={(e) => { setStatus(e.target.value); setPageNumber(1); }}>
          <option value="">All statuses</option>
          {planSetStatuses.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
        {suiteId ? <Link className="btn btn-small btn-ghost" href="/admin/plan-sets">All suites ×</Link> : null}
        <span className="toolbar-spacer" />
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>New plan set</button>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <DataTable
        caption="Plan sets"
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(p) => p.id}
        sort={sort}
        onSort={(field) => { setSort(nextSort(sort, field)); setPageNumber(1); }}
        loading={list.isLoading}
        empty={term || status ? "No plan set matches this filter." : "No plan sets yet. Price a product or a suite to start one."}
      />
      <Pager page={list.data} onPage={setPageNumber} />
      {creating ? (
        <PlanSetCreateDialog defaultSuiteId={suiteId || undefined} onClose={() => setCreating(false)} onCreated={(p) => router.push(`/admin/plan-sets/${p.id}`)} />
      ) : null}
    </>
  );
}
