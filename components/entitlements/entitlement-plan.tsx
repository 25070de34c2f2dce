"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { TEntitlementResponse } from "@/server/domain/entitlements/entitlement/entitlement.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";

/** The assigned plan, a form to assign another, and the plan-assignment history. */
export function EntitlementPlan({ entitlement }: { entitlement: TEntitlementResponse }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [planSetId, setPlanSetId] = useState(entitlement.planSetId ?? "");
  const [planName, setPlanName] = useState(entitlement.planName ?? "");
  const planSets = useQuery(
    trpc.planSets.list.queryOptions({ pageNumber: 1, pageSize: 100, filter: "status==Published" }),
  );
  const assign = useMutation(
    trpc.entitlements.assignPlan.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() }),
    }),
  );
  const plans = planSets.data?.items.find((p) => p.id === planSetId)?.plans ?? [];
  const setName = (id: string | null) => planSets.data?.items.find((p) => p.id === id)?.name ?? id ?? "";

  function submit(event: FormEvent) {
    event.preventDefault();
    if (planSetId && planName)
      assign.mutate({ id: entitlement.id, plan: { planSetId, planName, source: "ManualAdminAction" } });
  }

  return (
    <section className="panel" aria-labelledby="plan-heading">
      <div className="panel-head">
        <h2 id="plan-heading">Plan</h2>
        <span className="muted">
          {entitlement.planName
            ? `${entitlement.planName} of ${setName(entitlement.planSetId)}`
            : "No plan assigned."}
        </span>
      </div>
      <ProblemAlert problem={problemFrom(assign.error)} onDismiss={() => assign.reset()} />
      {entitlement.status === "Archived" ? null : (
        <form className="toolbar" onSubmit={submit}>
          <select
            aria-label="Plan set"
            value={planSetId}
            onChange={(e) => {
              setPlanSetId(e.target.value);
              setPlanName("");
            }}
          >
            <option value="">Choose a plan set</option>
            {(planSets.data?.items ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          <select
            aria-label="Plan"
            value={planName}
            onChange={(e) => setPlanName(e.target.value)}
            disabled={!planSetId}
          >
            <option value="">Choose a plan</option>
            {plans.map((p) => (
              <option key={p.id} value={p.name}>
                {p.name}
              </option>
            ))}
          </select>
          <button
            type="submit"
            className="btn btn-small btn-primary"
            disabled={assign.isPending || !planName}
          >
            Assign plan
          </button>
        </form>
      )}
      <div className="table-wrap">
        <table className="table table-compact" aria-label="Plan history">
          <thead>
            <tr>
              <th scope="col">Changed</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {entitlement.planHistory.map((h) => (
              <tr key={`${h.changedAt}-${h.newPlanName}`}>
                <td>{formatDateTime(h.changedAt)}</td>
                <td>{h.previousPlanName ?? <span className="muted">none</span>}</td>
                <td>{h.newPlanName}</td>
                <td>{h.source}</td>
              </tr>
            ))}
            {entitlement.planHistory.length ? null : (
              <tr>
                <td colSpan={4} className="muted">
                  No plan changes yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
