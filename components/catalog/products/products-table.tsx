"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { productStatuses, type TProductResponse } from "@/server/domain/catalog/product.schemas";
import { useTRPC } from "../../trpc-provider";
import { DataTable, Pager, nextSort, sortOrderOf, type Column, type SortState } from "../../data-table";
import { ProblemAlert } from "../../problem-alert";
import { problemFrom } from "../../problem";
import { formatDate, formatDateTime } from "../../format";
import { sieveFilter, sieveValue } from "../../sieve";
import { useDebounced } from "../../use-debounced";
import { StatusBadge } from "../referenced-by";
import { ProductFormDialog } from "./product-form-dialog";

const PAGE_SIZE = 20;

/** Products: filter by name or code and status, sort, page; a row opens the product. */
export function ProductsTable() {
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState("");
  const [includeDeleted, setIncludeDeleted] = useState(false);
  const [sort, setSort] = useState<SortState>({ field: "name", descending: false });
  const [pageNumber, setPageNumber] = useState(1);
  const [creating, setCreating] = useState(false);
  const term = useDebounced(search.trim());

  const list = useQuery({
    ...trpc.products.list.queryOptions({
      filter: sieveFilter(term && `name|productCode@=*${sieveValue(term)}`, status && `status==${status}`),
      sortOrder: sortOrderOf(sort),
      pageNumber,
      pageSize: PAGE_SIZE,
      includeDeleted,
    }),
    placeholderData: keepPreviousData,
  });

  const resetPage = <T,>(set: (v: T) => void) => (value: T) => {
    set(value);
    setPageNumber(1);
  };

  const columns: Column<TProductResponse>[] = [
    {
      key: "name", header: "Name", sortField: "name",
      render: (p) => (
        <span className="tag-name">
          <Link className="link-strong" href={`/admin/products/${p.id}`}>{p.name}</Link>
          {p.isLocked ? <span className="badge" title="Locked">locked</span> : null}
          {p.isDeleted ? <span className="badge badge-muted">deleted</span> : null}
        </span>
      ),
    },
    { key: "code", header: "Code", sortField: "productCode", render: (p) => <code>{p.productCode}</code> },
    { key: "version", header: "Version", sortField: "productVersion", render: (p) => p.productVersion || <span className="muted">—</span> },
    { key: "status", header: "Status", sortField: "status", render: (p) => <StatusBadge status={p.status} /> },
    { key: "features", header: "Features", align: "right", render: (p) => p.features.length },
    { key: "assets", header: "Assets", align: "right", render: (p) => p.monitoredAssets.length },
    { key: "expires", header: "Expires", sortField: "expirationDate", render: (p) => formatDate(p.expirationDate) },
    { key: "updated", header: "Updated", sortField: "updatedAt", render: (p) => formatDateTime(p.updatedAt) },
  ];

  return (
    <>
      <div className="toolbar">
        <input type="search" aria-label="Filter by name or code" placeholder="Filter by name or code…" value={search} onChange={(e) => resetPage(setSearch)(e.target.value)} />
        <select aria-label="Status" value={status} onChange={(e) => resetPage(setStatus)(e.target.value)}>
          <option value="">All statuses</option>
          {productStatuses.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
        <label className="checkbox">
          <input type="checkbox" checked={includeDeleted} onChange={(e) => resetPage(setIncludeDeleted)(e.target.checked)} />
          Show deleted
        </label>
        <span className="toolbar-spacer" />
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>New product</button>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <DataTable
        caption="Products"
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(p) => p.id}
        rowClassName={(p) => (p.isDeleted ? "row-deleted" : undefined)}
        sort={sort}
        onSort={(field) => { setSort(nextSort(sort, field)); setPageNumber(1); }}
        loading={list.isLoading}
        empty={term || status ? "No product matches this filter." : "No products yet. A product is identified by its code and version."}
      />
      <Pager page={list.data} onPage={setPageNumber} />
      {creating ? <ProductFormDialog onClose={() => setCreating(false)} /> : null}
    </>
  );
}
