"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { TEntitlementResponse } from "@/server/domain/entitlements/entitlement/entitlement.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { fieldError, problemFrom } from "../ui/problem";

/** An entitlement made from a Published offer, for a customer. */
export function EntitlementCreateDialog({
  onClose,
  onCreated,
  initialOfferId = "",
}: {
  onClose: () => void;
  onCreated: (e: TEntitlementResponse) => void;
  /** The offer chosen when the dialog opens from an offer's page. */
  initialOfferId?: string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [offerId, setOfferId] = useState(initialOfferId);
  const [customerId, setCustomerId] = useState("");
  const [reference, setReference] = useState("");
  const offers = useQuery(
    trpc.entitlements.offers.queryOptions({ pageNumber: 1, pageSize: 100, filter: "status==Published" }),
  );
  const users = useQuery(trpc.customers.users.queryOptions({ pageNumber: 1, pageSize: 100 }));
  const orgs = useQuery(trpc.customers.organizations.queryOptions({ pageNumber: 1, pageSize: 100 }));
  const create = useMutation(
    trpc.entitlements.create.mutationOptions({
      onSuccess: async (e) => {
        await queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() });
        onCreated(e);
      },
    }),
  );
  const problem = problemFrom(create.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({
      offerId: offerId || null,
      status: "Published",
      customerId: customerId || null,
      reference: reference.trim() || null,
      externalReference: null,
      validityDays: null,
      billing: null,
    });
  }

  return (
    <Dialog
      open
      title="New entitlement"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            form="entitlement-create"
            className="btn btn-primary"
            disabled={create.isPending || !offerId}
          >
            {create.isPending ? "Creating…" : "Create entitlement"}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problem} />
      <form id="entitlement-create" className="form" onSubmit={submit} noValidate>
        <Field
          label="Offer"
          htmlFor="entitlement-offer"
          hint="Published offers only; the entitlement is a snapshot of it."
          error={fieldError(problem, "offerId")}
        >
          <select id="entitlement-offer" value={offerId} onChange={(e) => setOfferId(e.target.value)}>
            <option value="">Choose an offer</option>
            {(offers.data?.items ?? []).map((o) => (
              <option key={o.id} value={o.id}>
                {o.name} (v{o.version})
              </option>
            ))}
          </select>
        </Field>
        <Field label="Customer" htmlFor="entitlement-customer">
          <select
            id="entitlement-customer"
            value={customerId}
            onChange={(e) => setCustomerId(e.target.value)}
          >
            <option value="">Unassigned</option>
            {(orgs.data?.items ?? []).map((o) => (
              <option key={o.id} value={o.id}>
                {o.name} (organization)
              </option>
            ))}
            {(users.data?.items ?? []).map((u) => (
              <option key={u.id} value={u.id}>
                {u.email ?? u.id} (user)
              </option>
            ))}
          </select>
        </Field>
        <Field
          label="Reference"
          htmlFor="entitlement-reference"
          hint="Purchase order or contract number (a routing key of its events)."
        >
          <input
            id="entitlement-reference"
            value={reference}
            onChange={(e) => setReference(e.target.value)}
          />
        </Field>
      </form>
    </Dialog>
  );
}
