"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { TPlanChangeRequestResponse } from "@/server/domain/entitlements/plan-change.schemas";
import { useTRPC } from "../trpc-provider";
import { DataTable, Pager, type Column } from "../data-table";
import { ProblemAlert } from "../problem-alert";
import { problemFrom } from "../problem";
import { formatDateTime } from "../format";

/** Consumers' plan-change requests; approving assigns the plan, either answer emits Entitlement.PlanChangeReviewed. */
export function PlanChangeRequestsTable() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState("Pending");
  const [pageNumber, setPageNumber] = useState(1);
  const list = useQuery({
    ...trpc.entitlements.planChangeRequests.queryOptions({ filter: status ? `status==${status}` : undefined, pageNumber, pageSize: 20 }),
    placeholderData: keepPreviousData,
  });
  const review = useMutation(trpc.entitlements.reviewPlanChange.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() }) }));
  const columns: Column<TPlanChangeRequestResponse>[] = [
    { key: "entitlement", header: "Entitlement", render: (r) => <Link href={`/admin/entitlements/${r.entitlementId}`}>{r.entitlementId.slice(0, 8)}</Link> },
    { key: "from", header: "Current plan", render: (r) => r.currentPlanName ?? <span className="muted">none</span> },
    { key: "to", header: "Requested plan", render: (r) => r.requestedPlanName },
    { key: "note", header: "Note", render: (r) => r.note ?? "" },
    { key: "status", header: "Status", render: (r) => r.status },
    { key: "created", header: "Requested", render: (r) => formatDateTime(r.createdAt) },
    {
      key: "actions", header: "",
      render: (r) => (r.status === "Pending" ? (
        <span className="row-actions">
          <button type="button" className="btn btn-small btn-primary" disabled={review.isPending} onClick={() => review.mutate({ id: r.id, approved: true })}>Approve</button>
          <button type="button" className="btn btn-small btn-danger-ghost" disabled={review.isPending} onClick={() => review.mutate({ id: r.id, approved: false })}>Reject</button>
        </span>
      ) : null),
    },
  ];
  return (
    <>
      <div className="toolbar">
        <select aria-label="Status" value={status} onChange={(e) => { setStatus(e.target.value); setPageNumber(1); }}>
          <option value="">All</option>
          {["Pending", "Approved", "Rejected"].map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
      </div>
      <ProblemAlert problem={problemFrom(list.error ?? review.error)} onDismiss={() => review.reset()} />
      <DataTable caption="Plan-change requests" columns={columns} rows={list.data?.items ?? []} rowKey={(r) => r.id} loading={list.isLoading} empty="No plan-change requests." />
      <Pager page={list.data} onPage={setPageNumber} />
    </>
  );
}
