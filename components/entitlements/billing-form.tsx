"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import {
  billingIntervals,
  billingMethods,
  billingModes,
  ZBillingFields,
  type TBillingResponse,
} from "@/server/domain/entitlements/billing/billing.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../ui/problem";
import { formatDateTime } from "../ui/format";

const editable = [
  "provider",
  "mode",
  "modeReason",
  "method",
  "interval",
  "amount",
  "currency",
  "billingReference",
  "notes",
  "contactName",
  "contactEmail",
  "contactPhone",
  "addressLine1",
  "addressLine2",
  "postalCode",
  "city",
  "stateOrProvince",
  "countryCode",
] as const;
type Form = Record<(typeof editable)[number], string>;

const formOf = (b: TBillingResponse): Form =>
  Object.fromEntries(
    editable.map((k) => [k, b[k] === null || b[k] === undefined ? "" : String(b[k])]),
  ) as Form;

/** The billing record: the operator-editable fields (a full replace) and what the provider reported. */
export function BillingForm({ entitlementId }: { entitlementId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.entitlements.billing.queryOptions({ id: entitlementId }));
  if (!query.data) return <ProblemAlert problem={problemFrom(query.error)} />;
  return <BillingEditor key={query.data.updatedAt} entitlementId={entitlementId} billing={query.data} />;
}

function BillingEditor({ entitlementId, billing }: { entitlementId: string; billing: TBillingResponse }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>(() => formOf(billing));
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);
  const save = useMutation(
    trpc.entitlements.replaceBilling.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() }),
    }),
  );
  const problem = localProblem ?? problemFrom(save.error);
  const set = (k: keyof Form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [k]: e.target.value });

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    save.reset();
    const input = Object.fromEntries(editable.map((k) => [k, form[k].trim() === "" ? null : form[k].trim()]));
    const parsed = ZBillingFields.safeParse({
      ...input,
      provider: form.provider || "manual",
      amount: form.amount ? Number(form.amount) : null,
      details: billing.details,
    });
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    save.mutate({ id: entitlementId, billing: parsed.data });
  }

  const text = (k: keyof Form, label: string) => (
    <Field label={label} htmlFor={`billing-${k}`} error={fieldError(problem, k)}>
      <input id={`billing-${k}`} value={form[k]} onChange={set(k)} />
    </Field>
  );
  const choice = (k: keyof Form, label: string, values: readonly string[]) => (
    <Field label={label} htmlFor={`billing-${k}`} error={fieldError(problem, k)}>
      <select id={`billing-${k}`} value={form[k]} onChange={set(k)}>
        {values
          .filter((v) => v !== "Unknown")
          .map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
      </select>
    </Field>
  );

  return (
    <section className="panel" aria-labelledby="billing-heading">
      <div className="panel-head">
        <h2 id="billing-heading">Billing</h2>
        <span className="muted">
          {billing.provider} · state {billing.state}
          {billing.stateObservedAt ? ` (${formatDateTime(billing.stateObservedAt)})` : ""}
          {billing.pastDueSince ? ` · past due since ${formatDateTime(billing.pastDueSince)}` : ""}
          {billing.lapsedAt ? ` · lapsed ${formatDateTime(billing.lapsedAt)}` : ""}
          {billing.lapsedPendingSince
            ? ` · lapse pending since ${formatDateTime(billing.lapsedPendingSince)}`
            : ""}
        </span>
      </div>
      <ProblemAlert problem={problem} />
      <form className="form" onSubmit={submit} noValidate aria-label="Billing record">
        <div className="form-row">
          {text("provider", "Provider")}
          {choice("mode", "Mode", billingModes)}
          {text("modeReason", "Mode reason")}
        </div>
        <div className="form-row">
          {choice("method", "Method", billingMethods)}
          {choice("interval", "Interval", billingIntervals)}
          {text("amount", "Amount (informational)")}
          {text("currency", "Currency")}
        </div>
        <div className="form-row">
          {text("billingReference", "Billing reference")}
          {text("contactName", "Contact")}
          {text("contactEmail", "Contact email")}
          {text("contactPhone", "Phone")}
        </div>
        <div className="form-row">
          {text("addressLine1", "Address")}
          {text("addressLine2", "Address line 2")}
          {text("postalCode", "Postal code")}
        </div>
        <div className="form-row">
          {text("city", "City")}
          {text("stateOrProvince", "State or province")}
          {text("countryCode", "Country")}
        </div>
        <Field label="Notes" htmlFor="billing-notes">
          <textarea id="billing-notes" rows={2} value={form.notes} onChange={set("notes")} />
        </Field>
        <div>
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save billing"}
          </button>
        </div>
      </form>
    </section>
  );
}
