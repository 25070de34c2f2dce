"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { TMonitoredAssetResponse } from "@/server/domain/catalog/monitored-assets/monitored-asset.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import type { Column } from "../../ui/data-table";
import { ProblemAlert } from "../../ui/problem-alert";
import { problemFrom } from "../../ui/problem";
import { formatDateTime } from "../../ui/format";
import { sieveValue } from "../../ui/sieve";
import { useListState } from "../../ui/use-list-state";
import { ListTable, SearchFilter, SelectFilter } from "../../ui/list-controls";
import { ExportCsvLink } from "../../operations/export-link";

/** Every monitored asset of the vendor: products' and the copies entitlements and offers hold. */
export function AssetsTable() {
  const trpc = useTRPC();
  const view = useListState({
    filters: { q: "", usageKind: "", ownerKind: "" },
    sort: { field: "metricName", descending: false },
    terms: (f) => [
      f.q && `metricName|name@=*${sieveValue(f.q)}`,
      f.usageKind && `usageKind==${f.usageKind}`,
      f.ownerKind && `ownerKind==${f.ownerKind}`,
    ],
  });
  const list = useQuery({
    ...trpc.monitoredAssets.list.queryOptions(view.query),
    placeholderData: keepPreviousData,
  });
  const columns: Column<TMonitoredAssetResponse>[] = [
    {
      key: "metric",
      header: "Metric name",
      sortField: "metricName",
      render: (a) => (
        <Link className="link-strong" href={`/admin/monitored-assets/${a.id}`}>
          <code>{a.metricName}</code>
        </Link>
      ),
    },
    { key: "name", header: "Name", sortField: "name", render: (a) => a.name },
    {
      key: "charging",
      header: "Charging",
      render: (a) =>
        a.meteredUsage ? (
          "Metered"
        ) : a.balanceUsage ? (
          "Credit balance"
        ) : (
          <span className="muted">Tracked only</span>
        ),
    },
    {
      key: "owner",
      header: "Held by",
      render: (a) =>
        a.entitlementId ? (
          "Entitlement"
        ) : a.offerId ? (
          "Offer"
        ) : a.productId ? (
          <Link href={`/admin/products/${a.productId}`}>Product</Link>
        ) : (
          "—"
        ),
    },
    {
      key: "category",
      header: "Category",
      sortField: "category",
      render: (a) => a.category || <span className="muted">—</span>,
    },
    { key: "updated", header: "Updated", sortField: "updatedAt", render: (a) => formatDateTime(a.updatedAt) },
  ];
  return (
    <>
      <div className="toolbar">
        <ExportCsvLink list="monitored-assets" query={view.query} pending={view.pending} />
        <SearchFilter view={view} name="q" label="Filter by metric" placeholder="Filter by metric or name…" />
        <SelectFilter
          view={view}
          name="usageKind"
          label="Charging"
          any="Any charging"
          options={[
            ["Metered", "Metered"],
            ["Balance", "Credit balance"],
            ["None", "Tracked only"],
          ]}
        />
        <SelectFilter
          view={view}
          name="ownerKind"
          label="Held by"
          any="Any holder"
          options={[
            ["Product", "Products"],
            ["Entitlement", "Entitlements"],
            ["Offer", "Offers"],
          ]}
        />
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <ListTable
        view={view}
        list={list}
        caption="Monitored assets"
        columns={columns}
        rowKey={(a) => a.id}
        empty={
          view.isFiltered
            ? "No monitored asset matches this filter."
            : "No monitored assets yet: add them on a product."
        }
      />
    </>
  );
}
