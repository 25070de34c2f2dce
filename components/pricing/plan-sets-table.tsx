"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { planSetStatuses, type TPlanSetResponse } from "@/server/domain/pricing/plan-sets/plan-set.schemas";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { sieveValue } from "../ui/sieve";
import { useListState } from "../ui/use-list-state";
import { ListTable, SearchFilter, SelectFilter } from "../ui/list-controls";
import { StatusBadge } from "./status-badge";
import { priceLabel } from "./plan-set-form";
import { PlanSetCreateDialog } from "./plan-set-create-dialog";
import { ExportCsvLink } from "../operations/export-link";

/** Every plan-set revision, newest first; filter by status, name or suite. */
export function PlanSetsTable() {
  const trpc = useTRPC();
  const router = useRouter();
  const view = useListState({
    // `suiteId` comes with links from a suite's page.
    filters: { q: "", status: "", suiteId: "" },
    sort: { field: "revisionDate", descending: true },
    terms: (f) => [
      f.q && `name|suiteName@=*${sieveValue(f.q)}`,
      f.status && `status==${f.status}`,
      /^[0-9a-f-]{36}$/i.test(f.suiteId) && `suiteId==${f.suiteId}`,
    ],
  });
  const suiteId = view.settled.suiteId;
  const [creating, setCreating] = useState(false);
  const list = useQuery({
    ...trpc.planSets.list.queryOptions(view.query),
    placeholderData: keepPreviousData,
  });

  const columns: Column<TPlanSetResponse>[] = [
    {
      key: "name",
      header: "Plan set",
      sortField: "name",
      render: (p) => <Link href={`/admin/plan-sets/${p.id}`}>{p.name}</Link>,
    },
    {
      key: "suite",
      header: "Suite",
      sortField: "suiteName",
      render: (p) => (
        <span className="tag-name">
          <Link href={`/admin/suites/${p.suiteId}`}>{p.suiteName}</Link>
          {p.suiteIsImplicit ? <span className="badge badge-muted">implicit</span> : null}
        </span>
      ),
    },
    { key: "revision", header: "Revision", sortField: "revision", align: "right", render: (p) => p.revision },
    {
      key: "status",
      header: "Status",
      sortField: "status",
      render: (p) => <StatusBadge status={p.status} />,
    },
    {
      key: "plans",
      header: "Plans",
      render: (p) =>
        p.plans.length ? (
          p.plans.map((plan) => `${plan.name} (${priceLabel(plan)})`).join(", ")
        ) : (
          <span className="muted">none</span>
        ),
    },
    {
      key: "date",
      header: "Revision date",
      sortField: "revisionDate",
      render: (p) => formatDateTime(p.revisionDate),
    },
  ];

  return (
    <>
      <div className="toolbar">
        <SearchFilter
          view={view}
          name="q"
          label="Filter by name or suite"
          placeholder="Filter by name or suite…"
        />
        <SelectFilter view={view} name="status" label="Status" any="All statuses" options={planSetStatuses} />
        {suiteId ? (
          <Link className="btn btn-small btn-ghost" href="/admin/plan-sets">
            All suites ×
          </Link>
        ) : null}
        <span className="toolbar-spacer" />
        <ExportCsvLink list="plan-sets" query={view.query} pending={view.pending} />
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          New plan set
        </button>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <ListTable
        view={view}
        list={list}
        caption="Plan sets"
        columns={columns}
        rowKey={(p) => p.id}
        empty={
          view.settled.q || view.settled.status
            ? "No plan set matches this filter."
            : "No plan sets yet. Price a product or a suite to start one."
        }
      />
      {creating ? (
        <PlanSetCreateDialog
          defaultSuiteId={suiteId || undefined}
          onClose={() => setCreating(false)}
          onCreated={(p) => router.push(`/admin/plan-sets/${p.id}`)}
        />
      ) : null}
    </>
  );
}
