"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useWatch } from "react-hook-form";
import {
  ZPlanSetUpdateRequest,
  pricingModes,
  type TPlanSetResponse,
  type TPlanSetUpdateRequest,
} from "@/server/domain/pricing/plan-sets/plan-set.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Form, SelectField, TextField, labelFromPath, useSchemaForm } from "../ui/form";
import { useKit } from "../ui/form/kit-context";
import { productLabel } from "./product-picker";
import { useMemberFeatures } from "./member-features";
import { PricingTable } from "./pricing-table";
import { PlanDialog } from "./plan-dialog";
import { PlanSetPreview } from "./plan-set-preview";
import type { MemberOption } from "./plan-line-items";
import { emptyPlan, formOf, requestOf, type PlanForm, type PlanSetForm } from "./plan-set-form";

/** A plan field's label, as its dialog names it. */
const planFieldLabels: Record<string, string> = {
  name: "Plan name",
  monthlyPrice: "Monthly price",
  currency: "Currency",
  relativeWeight: "Relative weight",
  description: "Description",
  pricingMode: "Pricing mode",
};
export const planFieldLabel = (path: string) =>
  planFieldLabels[path.split(".").pop() ?? ""] ?? labelFromPath(path);

/** The set's plans as a pricing table, each plan edited in its dialog, saved together. */
export function PlanSetPlans({ planSet }: { planSet: TPlanSetResponse }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const readOnly = planSet.status === "Archived";
  const form = useSchemaForm<PlanSetForm, TPlanSetUpdateRequest>(ZPlanSetUpdateRequest, {
    defaultValues: formOf(planSet),
    toPayload: (v) => requestOf(v),
  });
  const [saved, setSaved] = useState(false);
  // The customer's view of the same form: the editor stays mounted (hidden) so nothing typed is lost.
  const [previewing, setPreviewing] = useState(false);
  // The plan whose dialog is open, and what it held before (Cancel puts it back).
  const [editing, setEditing] = useState<{ index: number; before: PlanForm | null } | null>(null);

  const suite = useQuery(trpc.suites.get.queryOptions({ suiteId: planSet.suiteId }));
  const balances = useQuery(trpc.suites.balanceMetrics.queryOptions({ suiteId: planSet.suiteId }));
  const members: MemberOption[] = (suite.data?.members ?? []).map((m) => ({
    productId: m.productId,
    label: productLabel({ ...m, name: m.productName }),
  }));
  const featuresOf = useMemberFeatures(members.map((m) => m.productId));

  const update = useMutation(
    trpc.planSets.update.mutationOptions({
      onSuccess: async (result) => {
        await queryClient.invalidateQueries({ queryKey: trpc.planSets.pathKey() });
        // An edit of a published revision lands on a draft copy; go there.
        if (result.id !== planSet.id) {
          router.push(`/admin/plan-sets/${result.id}?editedFrom=${planSet.id}`);
          return;
        }
        form.reset(formOf(result));
        setSaved(true);
      },
      onError: form.showProblem,
    }),
  );

  const plans = () => form.getValues("plans");
  const addPlan = () => {
    const plan = emptyPlan();
    // A suite of one gets its member's line item right away.
    if (members.length === 1)
      plan.lineItems = [
        { key: `${plan.key}-li`, productId: members[0].productId, included: true, featureValues: [] },
      ];
    form.setValue("plans", [...plans(), plan], { shouldDirty: true });
    setEditing({ index: plans().length - 1, before: null });
  };
  const movePlan = (i: number, delta: number) => {
    const j = i + delta;
    const next = [...plans()];
    if (j < 0 || j >= next.length) return;
    [next[i], next[j]] = [next[j], next[i]];
    form.setValue("plans", next, { shouldDirty: true });
    form.clearErrors("plans");
  };
  const removePlan = (i: number) => {
    form.setValue(
      "plans",
      plans().filter((_, j) => j !== i),
      { shouldDirty: true },
    );
    form.clearErrors("plans");
  };
  const cancelEdit = () => {
    if (!editing) return;
    if (editing.before) form.setValue(`plans.${editing.index}`, editing.before);
    else removePlan(editing.index);
    form.clearErrors(`plans.${editing.index}`);
    setEditing(null);
  };

  return (
    <Form
      form={form}
      id="plan-set"
      className=""
      label="Plan set"
      onSubmit={(edit) => {
        setSaved(false);
        update.reset();
        update.mutate({ planSetId: planSet.id, edit });
      }}
    >
      <PlanLabels />
      {saved ? (
        <p className="muted small" role="status">
          Saved.
        </p>
      ) : null}
      <div className="view-toggle" role="group" aria-label="View">
        <button
          type="button"
          className="btn btn-small"
          aria-pressed={!previewing}
          onClick={() => setPreviewing(false)}
        >
          {readOnly ? "Pricing table" : "Edit plans"}
        </button>
        <button
          type="button"
          className="btn btn-small"
          aria-pressed={previewing}
          onClick={() => setPreviewing(true)}
        >
          Preview as customer
        </button>
      </div>
      {previewing ? <PlanSetPreview featuresOf={featuresOf} /> : null}
      <fieldset disabled={readOnly} hidden={previewing}>
        <div className="panel form">
          <div className="grid-3">
            <TextField name="name" label="Name" />
            <SelectField
              name="pricingMode"
              label="Pricing mode"
              hint="Every plan of a set is priced the same way."
              options={pricingModes.map((m) => ({
                value: m,
                label: m === "Absolute" ? "Absolute (monthly price)" : "Relative (weight)",
              }))}
            />
          </div>
          <TextField name="description" label="Description" multiline rows={2} />
        </div>
        <PricingTable
          members={members}
          featuresOf={featuresOf}
          membersLoading={suite.isPending}
          readOnly={readOnly}
          onEdit={(index) => setEditing({ index, before: structuredClone(plans()[index]) })}
          onMove={movePlan}
          onRemove={removePlan}
          labelOf={planFieldLabel}
        />
        <div className="toolbar">
          <button type="button" className="btn" onClick={addPlan}>
            Add plan
          </button>
          <span className="toolbar-spacer" />
          <button type="submit" className="btn btn-primary" disabled={update.isPending}>
            {update.isPending ? "Saving…" : planSet.status === "Published" ? "Save as draft copy" : "Save"}
          </button>
        </div>
      </fieldset>
      {editing ? (
        <PlanDialog
          key={editing.index}
          index={editing.index}
          readOnly={readOnly}
          onDone={() => setEditing(null)}
          onCancel={cancelEdit}
          members={members}
          membersLoading={suite.isPending}
          featuresOf={featuresOf}
          balanceMetrics={balances.data ?? []}
        />
      ) : null}
    </Form>
  );
}

/**
 * Names each plan's fields for the form's summary ("Monthly price of Standard"), since a plan's
 * fields are on screen only while its dialog is open.
 */
function PlanLabels() {
  const { labels } = useKit();
  const plans = (useWatch({ name: "plans" }) as PlanForm[] | undefined) ?? [];
  const names = plans.map((p, i) => p.name.trim() || `Plan ${i + 1}`).join("\n");
  useEffect(() => {
    names.split("\n").forEach((plan, i) => {
      for (const [field, label] of Object.entries(planFieldLabels))
        labels.set(`plans.${i}.${field}`, `${label} of ${plan}`);
    });
  }, [labels, names]);
  return null;
}
