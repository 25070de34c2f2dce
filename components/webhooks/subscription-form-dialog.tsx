"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import {
  ZSubscriptionCreateRequest,
  ZSubscriptionUpdateRequest,
  type TSubscriptionCreateRequest,
  type TSubscriptionResponse,
  type TSubscriptionUpdateRequest,
} from "@/server/domain/webhooks/subscriptions/subscription.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { CheckboxField, Form, SelectField, TextField, useSchemaForm } from "../ui/form";
import { subscriptionPayload, subscriptionValues, type SubscriptionValues } from "./subscription-form-values";

type Payload = TSubscriptionCreateRequest | TSubscriptionUpdateRequest;

/** A group of checkboxes, one per value, whose checked values are the form's list at `name`. */
function CheckList({ name, label, values }: { name: string; label: string; values: string[] }) {
  return (
    <div className="check-grid" role="group" aria-label={label}>
      {values.map((value) => (
        <CheckboxField key={value} name={name} value={value} label={<code>{value}</code>} />
      ))}
    </div>
  );
}

/** Creates a subscription (Http or Capture) or edits one; the kind is fixed once created. */
export function SubscriptionFormDialog({
  subscription,
  onClose,
  onCreated,
}: {
  subscription?: TSubscriptionResponse;
  onClose: () => void;
  onCreated?: (created: TSubscriptionResponse & { secret: string | null }) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const eventTypes = useQuery(trpc.webhooks.eventTypes.queryOptions());
  const callbackScopes = useQuery(trpc.webhooks.callbackScopes.queryOptions());
  const form = useSchemaForm<SubscriptionValues, Payload>(
    (subscription ? ZSubscriptionUpdateRequest : ZSubscriptionCreateRequest) as z.ZodType<Payload>,
    {
      defaultValues: subscriptionValues(subscription),
      toPayload: (v) => subscriptionPayload(v, subscription),
    },
  );
  const targetKind = form.watch("targetKind");
  const all = form.watch("all");

  const done = async () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: async (created) => {
        await done();
        onCreated?.(created);
      },
      onError: form.showProblem,
    }),
  );
  const update = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: async () => {
        await done();
        onClose();
      },
      onError: form.showProblem,
    }),
  );
  const busy = create.isPending || update.isPending;

  function submit(payload: Payload) {
    if (subscription) update.mutate({ id: subscription.id, patch: payload as TSubscriptionUpdateRequest });
    else create.mutate(payload as TSubscriptionCreateRequest);
  }

  return (
    <Dialog
      open
      wide
      title={subscription ? `Edit ${subscription.displayName}` : "New webhook subscription"}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form="wh" className="btn btn-primary" disabled={busy}>
            {busy ? "Saving…" : subscription ? "Save" : "Create subscription"}
          </button>
        </>
      }
    >
      <Form form={form} id="wh" onSubmit={submit}>
        <div className="form-grid">
          <SelectField
            name="targetKind"
            label="Kind"
            disabled={Boolean(subscription)}
            hint={
              targetKind === "Capture"
                ? "Records matching events for inspection; sends nothing."
                : "POSTs signed CloudEvents to your endpoint after verification."
            }
            options={[
              { value: "Http", label: "Http endpoint" },
              { value: "Capture", label: "Capture (viewer only)" },
            ]}
          />
          <TextField name="displayName" label="Display name" />
        </div>
        {targetKind === "Http" ? (
          <TextField
            name="url"
            label="Endpoint URL"
            type="url"
            placeholder="https://example.com/webhooks"
            hint="A public https URL; changing it needs a new verification."
          />
        ) : null}
        <fieldset className="form-section">
          <legend>Event types</legend>
          <CheckboxField name="all" label="All event types (*), including types added later" />
          {all ? null : (
            <CheckList
              name="types"
              label="Event types"
              values={(eventTypes.data ?? []).filter((t) => t.subscribable).map((t) => t.type)}
            />
          )}
        </fieldset>
        <fieldset className="form-section">
          <legend>Filters (optional; an event must pass every filter set)</legend>
          <div className="form-grid">
            <TextField
              name="entityKinds"
              label="Entity kinds"
              multiline
              rows={2}
              schemaPath="-"
              hint="One per line, e.g. entitlement, monitored-asset"
            />
            <TextField
              name="severities"
              label="Severities"
              multiline
              rows={2}
              schemaPath="-"
              hint="Overage events only; one per line"
            />
          </div>
          <TextField
            name="equality"
            label="Attribute equality"
            multiline
            rows={3}
            schemaPath="-"
            hint="One path=value per line (dot paths into data, exact case), e.g. billing.provider=stripe"
          />
        </fieldset>
        {targetKind === "Http" ? (
          <fieldset className="form-section">
            <legend>Callback scopes (optional)</legend>
            <p className="muted small">
              Each delivery then carries a 5-minute token with exactly these scopes, usable as a bearer token
              against the API.
            </p>
            <CheckList name="scopes" label="Callback scopes" values={callbackScopes.data ?? []} />
          </fieldset>
        ) : null}
      </Form>
    </Dialog>
  );
}
