"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { TSuiteResponse } from "@/server/domain/catalog/suite.schemas";
import { useTRPC } from "../trpc-provider";
import { DataTable, Pager, nextSort, sortOrderOf, type Column, type SortState } from "../data-table";
import { ConfirmDialog } from "../confirm-dialog";
import { ProblemAlert } from "../problem-alert";
import { problemFrom } from "../problem";
import { formatDateTime } from "../format";
import { sieveFilter, sieveValue } from "../sieve";
import { useDebounced } from "../use-debounced";
import { SuiteFormDialog } from "./suite-form-dialog";

const PAGE_SIZE = 20;

/** Suites: search, implicit ones on request, create, delete (what the suite owns shown first). */
export function SuitesTable() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const [includeImplicit, setIncludeImplicit] = useState(false);
  const [sort, setSort] = useState<SortState>({ field: "name", descending: false });
  const [pageNumber, setPageNumber] = useState(1);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<TSuiteResponse | null>(null);
  const term = useDebounced(search.trim());
  const list = useQuery({
    ...trpc.suites.list.queryOptions({
      filter: sieveFilter(term && `name|code@=*${sieveValue(term)}`),
      sortOrder: sortOrderOf(sort),
      pageNumber,
      pageSize: PAGE_SIZE,
      includeImplicit,
    }),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation(
    trpc.suites.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.suites.pathKey() });
        setDeleting(null);
      },
    }),
  );

  const columns: Column<TSuiteResponse>[] = [
    {
      key: "name", header: "Suite", sortField: "name",
      render: (s) => (
        <span className="tag-name">
          <Link href={`/admin/suites/${s.id}`}>{s.name}</Link>
          {s.isImplicit ? <span className="badge badge-muted" title="Created when a single product was priced">implicit</span> : null}
        </span>
      ),
    },
    { key: "code", header: "Code", sortField: "code", render: (s) => <code>{s.code}</code> },
    {
      key: "members", header: "Members (sell order)",
      render: (s) => (s.members.length ? s.members.map((m) => m.productName ?? m.productId).join(" → ") : <span className="muted">none</span>),
    },
    { key: "planSets", header: "Plan sets", align: "right", render: (s) => s.referencedBy.planSets },
    { key: "updated", header: "Updated", sortField: "updatedAt", render: (s) => formatDateTime(s.updatedAt) },
    {
      key: "actions", header: "",
      render: (s) => (
        <span className="row-actions">
          <Link className="btn btn-small" href={`/admin/suites/${s.id}`}>Open</Link>
          <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => { remove.reset(); setDeleting(s); }}>Delete</button>
        </span>
      ),
    },
  ];

  const owned = deleting ? deleting.referencedBy.planSets + deleting.referencedBy.addOns : 0;
  return (
    <>
      <div className="toolbar">
        <input type="search" aria-label="Filter by name or code" placeholder="Filter by name or code…" value={search} onChange={(e) => { setSearch(e.target.value); setPageNumber(1); }} />
        <label className="checkbox">
          <input type="checkbox" checked={includeImplicit} onChange={(e) => { setIncludeImplicit(e.target.checked); setPageNumber(1); }} />
          Show implicit suites
        </label>
        <span className="toolbar-spacer" />
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>New suite</button>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <DataTable
        caption="Suites"
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(s) => s.id}
        sort={sort}
        onSort={(field) => { setSort(nextSort(sort, field)); setPageNumber(1); }}
        loading={list.isLoading}
        empty={term ? "No suite matches this filter." : "No suites yet. A suite sells products together and owns their plan sets."}
      />
      <Pager page={list.data} onPage={setPageNumber} />
      {creating ? <SuiteFormDialog onClose={() => setCreating(false)} onCreated={(s) => router.push(`/admin/suites/${s.id}`)} /> : null}
      <ConfirmDialog
        open={!!deleting}
        title={deleting ? `Delete suite “${deleting.name}”?` : "Delete suite"}
        confirmLabel="Delete suite"
        danger
        busy={remove.isPending}
        problem={problemFrom(remove.error)}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate({ suiteId: deleting.id })}
      >
        {deleting ? (
          <p data-testid="delete-references">
            {owned === 0
              ? "The suite owns no plan set and no add-on."
              : `The suite owns ${deleting.referencedBy.planSets} plan-set revision(s) and ${deleting.referencedBy.addOns} add-on(s); a suite that owns any cannot be deleted.`}
          </p>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
