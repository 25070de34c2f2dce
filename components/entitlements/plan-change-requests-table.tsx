"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import type { TPlanChangeRequestResponse } from "@/server/domain/entitlements/plans/plan-change.schemas";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { useListState } from "../ui/use-list-state";
import { ListTable, SelectFilter } from "../ui/list-controls";
import { ExportCsvLink } from "../operations/export-link";

/** Consumers' plan-change requests; approving assigns the plan, either answer emits Entitlement.PlanChangeReviewed. */
export function PlanChangeRequestsTable() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view = useListState({
    filters: { status: "Pending" },
    terms: (f) => [f.status && `status==${f.status}`],
  });
  const list = useQuery({
    ...trpc.entitlements.planChangeRequests.queryOptions(view.query),
    placeholderData: keepPreviousData,
  });
  const review = useMutation(
    trpc.entitlements.reviewPlanChange.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() }),
    }),
  );
  const columns: Column<TPlanChangeRequestResponse>[] = [
    {
      key: "entitlement",
      header: "Entitlement",
      render: (r) => (
        <Link href={`/admin/entitlements/${r.entitlementId}`}>{r.entitlementId.slice(0, 8)}</Link>
      ),
    },
    {
      key: "from",
      header: "Current plan",
      render: (r) => r.currentPlanName ?? <span className="muted">none</span>,
    },
    { key: "to", header: "Requested plan", render: (r) => r.requestedPlanName },
    { key: "note", header: "Note", render: (r) => r.note ?? "" },
    { key: "status", header: "Status", render: (r) => r.status },
    { key: "created", header: "Requested", render: (r) => formatDateTime(r.createdAt) },
    {
      key: "actions",
      header: "",
      render: (r) =>
        r.status === "Pending" ? (
          <span className="row-actions">
            <button
              type="button"
              className="btn btn-small btn-primary"
              disabled={review.isPending}
              onClick={() => review.mutate({ id: r.id, approved: true })}
            >
              Approve
            </button>
            <button
              type="button"
              className="btn btn-small btn-danger-ghost"
              disabled={review.isPending}
              onClick={() => review.mutate({ id: r.id, approved: false })}
            >
              Reject
            </button>
          </span>
        ) : null,
    },
  ];
  return (
    <>
      <div className="toolbar">
        <ExportCsvLink list="plan-change-requests" query={view.query} pending={view.pending} />
        <SelectFilter
          view={view}
          name="status"
          label="Status"
          any="All"
          options={["Pending", "Approved", "Rejected"]}
        />
      </div>
      <ProblemAlert problem={problemFrom(list.error ?? review.error)} onDismiss={() => review.reset()} />
      <ListTable
        view={view}
        list={list}
        caption="Plan-change requests"
        columns={columns}
        rowKey={(r) => r.id}
        empty="No plan-change requests."
      />
    </>
  );
}
