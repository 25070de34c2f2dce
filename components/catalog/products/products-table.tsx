"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { productStatuses, type TProductResponse } from "@/server/domain/catalog/products/product.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import type { Column } from "../../ui/data-table";
import { ProblemAlert } from "../../ui/problem-alert";
import { problemFrom } from "../../ui/problem";
import { formatDate, formatDateTime } from "../../ui/format";
import { sieveValue } from "../../ui/sieve";
import { useListState } from "../../ui/use-list-state";
import { CheckboxFilter, ListTable, SearchFilter, SelectFilter } from "../../ui/list-controls";
import { StatusBadge } from "../referenced-by";
import { ProductFormDialog } from "./product-form-dialog";
import { ExportCsvLink } from "../../operations/export-link";

/** Products: filter by name or code and status, sort, page; a row opens the product. */
export function ProductsTable() {
  const trpc = useTRPC();
  const view = useListState({
    filters: { q: "", status: "", deleted: false },
    sort: { field: "name", descending: false },
    terms: (f) => [f.q && `name|productCode@=*${sieveValue(f.q)}`, f.status && `status==${f.status}`],
  });
  const [creating, setCreating] = useState(false);

  const list = useQuery({
    ...trpc.products.list.queryOptions({ ...view.query, includeDeleted: view.settled.deleted }),
    placeholderData: keepPreviousData,
  });

  const columns: Column<TProductResponse>[] = [
    {
      key: "name",
      header: "Name",
      sortField: "name",
      render: (p) => (
        <span className="tag-name">
          <Link className="link-strong" href={`/admin/products/${p.id}`}>
            {p.name}
          </Link>
          {p.isLocked ? (
            <span className="badge" title="Locked">
              locked
            </span>
          ) : null}
          {p.isDeleted ? <span className="badge badge-muted">deleted</span> : null}
        </span>
      ),
    },
    { key: "code", header: "Code", sortField: "productCode", render: (p) => <code>{p.productCode}</code> },
    {
      key: "version",
      header: "Version",
      sortField: "productVersion",
      render: (p) => p.productVersion || <span className="muted">—</span>,
    },
    {
      key: "status",
      header: "Status",
      sortField: "status",
      render: (p) => <StatusBadge status={p.status} />,
    },
    { key: "features", header: "Features", align: "right", render: (p) => p.features.length },
    { key: "assets", header: "Assets", align: "right", render: (p) => p.monitoredAssets.length },
    {
      key: "expires",
      header: "Expires",
      sortField: "expirationDate",
      render: (p) => formatDate(p.expirationDate),
    },
    { key: "updated", header: "Updated", sortField: "updatedAt", render: (p) => formatDateTime(p.updatedAt) },
  ];

  return (
    <>
      <div className="toolbar">
        <SearchFilter
          view={view}
          name="q"
          label="Filter by name or code"
          placeholder="Filter by name or code…"
        />
        <SelectFilter view={view} name="status" label="Status" any="All statuses" options={productStatuses} />
        <CheckboxFilter view={view} name="deleted">
          Show deleted
        </CheckboxFilter>
        <span className="toolbar-spacer" />
        <ExportCsvLink
          list="products"
          query={view.query}
          pending={view.pending}
          extra={{ includeDeleted: view.settled.deleted }}
        />
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          New product
        </button>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <ListTable
        view={view}
        list={list}
        caption="Products"
        columns={columns}
        rowKey={(p) => p.id}
        rowClassName={(p) => (p.isDeleted ? "row-deleted" : undefined)}
        empty={
          view.settled.q || view.settled.status
            ? "No product matches this filter."
            : "No products yet. A product is identified by its code and version."
        }
      />
      {creating ? <ProductFormDialog onClose={() => setCreating(false)} /> : null}
    </>
  );
}
