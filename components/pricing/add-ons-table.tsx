"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { addOnStatuses, type TAddOnResponse } from "@/server/domain/pricing/add-ons/add-on.schemas";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { sieveValue } from "../ui/sieve";
import { useListState } from "../ui/use-list-state";
import { ListTable, SearchFilter, SelectFilter } from "../ui/list-controls";
import { StatusBadge } from "./status-badge";
import { AddOnCreateDialog } from "./add-on-create-dialog";
import { ExportCsvLink } from "../operations/export-link";

export function AddOnsTable() {
  const trpc = useTRPC();
  const router = useRouter();
  const view = useListState({
    filters: { q: "", status: "" },
    sort: { field: "name", descending: false },
    terms: (f) => [f.q && `name|code@=*${sieveValue(f.q)}`, f.status && `status==${f.status}`],
  });
  const [creating, setCreating] = useState(false);
  const list = useQuery({
    ...trpc.addOns.list.queryOptions(view.query),
    placeholderData: keepPreviousData,
  });
  const columns: Column<TAddOnResponse>[] = [
    {
      key: "name",
      header: "Add-on",
      sortField: "name",
      render: (a) => <Link href={`/admin/add-ons/${a.id}`}>{a.name}</Link>,
    },
    { key: "code", header: "Code", sortField: "code", render: (a) => <code>{a.code}</code> },
    {
      key: "suite",
      header: "Suite",
      sortField: "suiteName",
      render: (a) => <Link href={`/admin/suites/${a.suiteId}`}>{a.suiteName}</Link>,
    },
    {
      key: "status",
      header: "Status",
      sortField: "status",
      render: (a) => <StatusBadge status={a.status} />,
    },
    {
      key: "features",
      header: "Features",
      render: (a) =>
        a.features.map((f) => f.name ?? f.featureCatalogId).join(", ") || <span className="muted">none</span>,
    },
    { key: "updated", header: "Updated", sortField: "updatedAt", render: (a) => formatDateTime(a.updatedAt) },
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
        <SelectFilter view={view} name="status" label="Status" any="All statuses" options={addOnStatuses} />
        <span className="toolbar-spacer" />
        <ExportCsvLink list="add-ons" query={view.query} pending={view.pending} />
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          New add-on
        </button>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <ListTable
        view={view}
        list={list}
        caption="Add-ons"
        columns={columns}
        rowKey={(a) => a.id}
        empty={
          view.isFiltered
            ? "No add-on matches this filter."
            : "No add-ons yet. An add-on adjusts features of a suite's plans for the entitlements it is granted to."
        }
      />
      {creating ? (
        <AddOnCreateDialog
          onClose={() => setCreating(false)}
          onCreated={(a) => router.push(`/admin/add-ons/${a.id}`)}
        />
      ) : null}
    </>
  );
}
