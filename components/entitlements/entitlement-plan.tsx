"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useWatch } from "react-hook-form";
import type { TEntitlementResponse } from "@/server/domain/entitlements/entitlement/entitlement.schemas";
import {
  ZAssignPlanRequest,
  type TAssignPlanRequest,
} from "@/server/domain/entitlements/plans/plan-change.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { formatDateTime } from "../ui/format";
import { Form, SelectField, useSchemaForm } from "../ui/form";

type Values = { planSetId: string; planName: string };

/** The assigned plan, a form to assign another, and the plan-assignment history. */
export function EntitlementPlan({ entitlement }: { entitlement: TEntitlementResponse }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useSchemaForm<Values, TAssignPlanRequest>(ZAssignPlanRequest, {
    defaultValues: { planSetId: entitlement.planSetId ?? "", planName: entitlement.planName ?? "" },
    toPayload: (v) => ({ ...v, source: "ManualAdminAction" }),
  });
  const planSetId = useWatch({ control: form.control, name: "planSetId" });
  const planSets = useQuery(
    trpc.planSets.list.queryOptions({ pageNumber: 1, pageSize: 100, filter: "status==Published" }),
  );
  const assign = useMutation(
    trpc.entitlements.assignPlan.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() }),
      onError: form.showProblem,
    }),
  );
  const plans = planSets.data?.items.find((p) => p.id === planSetId)?.plans ?? [];
  // While the names load, or for a set no longer published, never the set's id.
  const setName = (id: string | null) =>
    planSets.data?.items.find((p) => p.id === id)?.name ??
    (planSets.isPending ? "…" : "an earlier plan set revision");

  // Another plan set's plans are other plans: the choice starts again.
  const shownSet = useRef(planSetId);
  useEffect(() => {
    if (shownSet.current !== planSetId) form.setValue("planName", "");
    shownSet.current = planSetId;
  }, [form, planSetId]);

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
      {entitlement.status === "Archived" ? null : (
        <Form
          form={form}
          id="assign-plan"
          className="form-inline"
          label="Assign a plan"
          onSubmit={(plan) => {
            assign.reset();
            assign.mutate({ id: entitlement.id, plan });
          }}
        >
          <SelectField
            name="planSetId"
            label="Plan set"
            emptyLabel="Choose a plan set"
            options={(planSets.data?.items ?? []).map((set) => ({ value: set.id, label: set.name }))}
          />
          <SelectField
            name="planName"
            label="Plan"
            emptyLabel="Choose a plan"
            disabled={!planSetId}
            options={plans.map((p) => ({ value: p.name, label: p.name }))}
          />
          <button type="submit" className="btn btn-small btn-primary" disabled={assign.isPending}>
            Assign plan
          </button>
        </Form>
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
