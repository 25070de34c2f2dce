"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { TMonitoredAssetResponse } from "@/server/domain/catalog/monitored-asset.schemas";
import { useTRPC } from "../../trpc-provider";
import { DataTable, Pager, nextSort, sortOrderOf, type Column, type SortState } from "../../data-table";
import { ProblemAlert } from "../../problem-alert";
import { problemFrom } from "../../problem";
import { formatDateTime } from "../../format";
import { sieveFilter, sieveValue } from "../../sieve";
import { useDebounced } from "../../use-debounced";

const PAGE_SIZE = 20;

/** Every monitored asset of the vendor: products' and the copies entitlements and offers hold. */
export function AssetsTable() {
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const [usageKind, setUsageKind] = useState("");
  const [ownerKind, setOwnerKind] = useState("");
  const [sort, setSort] = useState<SortState>({ field: "metricName", descending: false });
  const [pageNumber, setPageNumber] = useState(1);
  const term = useDebounced(search.trim());
  const list = useQuery({
    ...trpc.monitoredAssets.list.queryOptions({
      filter: sieveFilter(term && `metricName|name@=*${sieveValue(term)}`, usageKind && `usageKind==${usageKind}`, ownerKind && `ownerKind==${ownerKind}`),
      sortOrder: sortOrderOf(sort),
      pageNumber,
      pageSize: PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });
  const resetPage = <T,>(set: (v: T) => void) => (value: T) => {
    set(value);
    setPageNumber(1);
  };
  const columns: Column<TMonitoredAssetResponse>[] = [
    { key: "metric", header: "Metric name", sortField: "metricName", render: (a) => <Link className="link-strong" href={`/admin/monitored-assets/${a.id}`}><code>{a.metricName}</code></Link> },
    { key: "name", header: "Name", sortField: "name", render: (a) => a.name },
    { key: "charging", header: "Charging", render: (a) => (a.meteredUsage ? "Metered" : a.balanceUsage ? "Credit balance" : <span className="muted">Tracked only</span>) },
    { key: "owner", header: "Held by", render: (a) => (a.entitlementId ? "Entitlement" : a.offerId ? "Offer" : a.productId ? <Link href={`/admin/products/${a.productId}`}>Product</Link> : "—") },
    { key: "category", header: "Category", sortField: "category", render: (a) => a.category || <span className="muted">—</span> },
    { key: "updated", header: "Updated", sortField: "updatedAt", render: (a) => formatDateTime(a.updatedAt) },
  ];
  return (
    <>
      <div className="toolbar">
        <input type="search" aria-label="Filter by metric" placeholder="Filter by metric or name…" value={search} onChange={(e) => resetPage(setSearch)(e.target.value)} />
        <select aria-label="Charging" value={usageKind} onChange={(e) => resetPage(setUsageKind)(e.target.value)}>
          <option value="">Any charging</option>
          <option value="Metered">Metered</option>
          <option value="Balance">Credit balance</option>
          <option value="None">Tracked only</option>
        </select>
        <select aria-label="Held by" value={ownerKind} onChange={(e) => resetPage(setOwnerKind)(e.target.value)}>
          <option value="">Any holder</option>
          <option value="Product">Products</option>
          <option value="Entitlement">Entitlements</option>
          <option value="Offer">Offers</option>
        </select>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <DataTable
        caption="Monitored assets"
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(a) => a.id}
        sort={sort}
        onSort={(field) => { setSort(nextSort(sort, field)); setPageNumber(1); }}
        loading={list.isLoading}
        empty={term || usageKind || ownerKind ? "No monitored asset matches this filter." : "No monitored assets yet: add them on a product."}
      />
      <Pager page={list.data} onPage={setPageNumber} />
    </>
  );
}
