"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { TPlanChangeRequestResponse } from "@/server/domain/entitlements/plans/plan-change.schemas";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { useListState } from "../ui/use-list-state";
import { ListTable, SelectFilter } from "../ui/list-controls";
import { ExportCsvLink } from "../operations/export-link";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Field } from "../ui/field";
import { useEntitlementNames } from "./pickers";

type Review = { request: TPlanChangeRequestResponse; approved: boolean };

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
  const [reviewing, setReviewing] = useState<Review | null>(null);
  const [note, setNote] = useState("");
  const review = useMutation(
    trpc.entitlements.reviewPlanChange.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() });
        setReviewing(null);
      },
    }),
  );
  const names = useEntitlementNames((list.data?.items ?? []).map((r) => r.entitlementId));
  function ask(request: TPlanChangeRequestResponse, approved: boolean) {
    review.reset();
    setNote("");
    setReviewing({ request, approved });
  }
  const columns: Column<TPlanChangeRequestResponse>[] = [
    {
      key: "entitlement",
      header: "Entitlement",
      render: (r) => (
        <Link href={`/admin/entitlements/${r.entitlementId}`}>
          {names.get(r.entitlementId) ?? "entitlement"}
        </Link>
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
              aria-label={`Approve ${r.requestedPlanName} for ${names.get(r.entitlementId) ?? "this entitlement"}`}
              onClick={() => ask(r, true)}
            >
              Approve
            </button>
            <button
              type="button"
              className="btn btn-small btn-danger-ghost"
              aria-label={`Reject ${r.requestedPlanName} for ${names.get(r.entitlementId) ?? "this entitlement"}`}
              onClick={() => ask(r, false)}
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
      <ProblemAlert problem={problemFrom(list.error)} />
      <ListTable
        view={view}
        list={list}
        caption="Plan-change requests"
        columns={columns}
        rowKey={(r) => r.id}
        empty={
          view.values.status
            ? `No ${view.values.status.toLowerCase()} plan-change requests.`
            : "No plan-change requests yet."
        }
      />
      <ConfirmDialog
        open={reviewing !== null}
        title={
          reviewing
            ? `${reviewing.approved ? "Approve" : "Reject"} ${reviewing.request.requestedPlanName} for ${names.get(reviewing.request.entitlementId) ?? "this entitlement"}?`
            : ""
        }
        confirmLabel={reviewing?.approved ? "Approve" : "Reject"}
        danger={reviewing?.approved === false}
        busy={review.isPending}
        problem={problemFrom(review.error)}
        onCancel={() => setReviewing(null)}
        onConfirm={() =>
          reviewing &&
          review.mutate({ id: reviewing.request.id, approved: reviewing.approved, note: note.trim() || null })
        }
      >
        <p>
          {reviewing?.approved
            ? `The license moves to ${reviewing.request.requestedPlanName} at once; the customer sees the outcome on their license.`
            : "The license keeps its plan; the customer sees the outcome on their license."}
        </p>
        <Field label="Note to the customer" htmlFor="review-note" hint="Optional. Shown with the outcome.">
          <textarea
            id="review-note"
            rows={3}
            maxLength={2000}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
        </Field>
      </ConfirmDialog>
    </>
  );
}
