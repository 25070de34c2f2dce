"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import {
  billingIntervals,
  billingMethods,
  billingModes,
  ZBillingFields,
  type TBillingResponse,
} from "@/server/domain/entitlements/billing/billing.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import {
  billingIntervalLabels,
  billingMethodLabels,
  billingModeLabels,
  billingStateLabels,
  enumLabel,
} from "../ui/enum-labels";
import { Form, NumberField, SelectField, TextField, useSchemaForm } from "../ui/form";

const editable = [
  "provider",
  "mode",
  "modeReason",
  "method",
  "interval",
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
/** The record's text fields as typed ("" for none), and the amount as the number field holds it. */
type Values = Record<(typeof editable)[number], string> & { amount: number | null };
type Billing = z.infer<typeof ZBillingFields>;

const valuesOf = (b: TBillingResponse): Values => ({
  ...(Object.fromEntries(
    editable.map((k) => [k, b[k] === null || b[k] === undefined ? "" : String(b[k])]),
  ) as Record<(typeof editable)[number], string>),
  amount: b.amount === null || b.amount === undefined ? null : Number(b.amount),
});

const choices = (values: readonly string[], labels: Readonly<Record<string, string>>) =>
  values.filter((v) => v !== "Unknown").map((v) => ({ value: v, label: enumLabel(labels, v) }));

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
  const form = useSchemaForm<Values, Billing>(ZBillingFields, {
    defaultValues: valuesOf(billing),
    // A full replace: blanks are cleared, and the provider's own details go back as they came.
    toPayload: (v) => ({
      ...Object.fromEntries(editable.map((k) => [k, v[k].trim() === "" ? null : v[k].trim()])),
      provider: v.provider.trim() || "manual",
      amount: v.amount,
      details: billing.details,
    }),
  });
  const save = useMutation(
    trpc.entitlements.replaceBilling.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() }),
      onError: form.showProblem,
    }),
  );

  return (
    <section className="panel" aria-labelledby="billing-heading">
      <div className="panel-head">
        <h2 id="billing-heading">Billing</h2>
        <span className="muted">
          {billing.provider} · {enumLabel(billingStateLabels, billing.state)}
          {billing.stateObservedAt ? ` (${formatDateTime(billing.stateObservedAt)})` : ""}
          {billing.pastDueSince ? ` · past due since ${formatDateTime(billing.pastDueSince)}` : ""}
          {billing.lapsedAt ? ` · lapsed ${formatDateTime(billing.lapsedAt)}` : ""}
          {billing.lapsedPendingSince
            ? ` · lapse pending since ${formatDateTime(billing.lapsedPendingSince)}`
            : ""}
        </span>
      </div>
      <Form
        form={form}
        id="billing"
        label="Billing record"
        onSubmit={(payload) => {
          save.reset();
          save.mutate({ id: entitlementId, billing: payload });
        }}
      >
        <div className="form-row">
          <TextField name="provider" label="Provider" />
          <SelectField name="mode" label="Mode" options={choices(billingModes, billingModeLabels)} />
          <TextField name="modeReason" label="Mode reason" />
        </div>
        <div className="form-row">
          <SelectField name="method" label="Method" options={choices(billingMethods, billingMethodLabels)} />
          <SelectField
            name="interval"
            label="Interval"
            options={choices(billingIntervals, billingIntervalLabels)}
          />
          <NumberField name="amount" label="Amount (informational)" emptyAs={null} />
          <TextField name="currency" label="Currency" hint="Three letters, like EUR." />
        </div>
        <div className="form-row">
          <TextField name="billingReference" label="Billing reference" />
          <TextField name="contactName" label="Contact" />
          <TextField name="contactEmail" label="Contact email" type="email" />
          <TextField name="contactPhone" label="Phone" />
        </div>
        <div className="form-row">
          <TextField name="addressLine1" label="Address" />
          <TextField name="addressLine2" label="Address line 2" />
          <TextField name="postalCode" label="Postal code" />
        </div>
        <div className="form-row">
          <TextField name="city" label="City" />
          <TextField name="stateOrProvince" label="State or province" />
          <TextField name="countryCode" label="Country" hint="Two letters, like DE." />
        </div>
        <TextField name="notes" label="Notes" multiline rows={2} />
        <div>
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save billing"}
          </button>
        </div>
      </Form>
    </section>
  );
}
