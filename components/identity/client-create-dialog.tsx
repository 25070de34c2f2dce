"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { get, useController, useFormState, useWatch } from "react-hook-form";
import { INTEGRATOR_SCOPE } from "@/server/domain/identity/scopes";
import { z } from "zod";
import {
  ZClientCreateRequest,
  type ClientKind,
  type TClientCreateRequest,
} from "@/server/domain/identity/oauth-clients.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { CopyButton } from "../ui/copy-button";
import { Form, SelectField, TextField, useSchemaForm, withLabel } from "../ui/form";
import { ScopePicker } from "./scope-picker";

type Values = { name: string; kind: ClientKind; scopes: string[] };

/** The API's create request, with the kinds this staff user may register. */
const clientRequest = (kinds: readonly ClientKind[]) =>
  ZClientCreateRequest.extend({ kind: z.enum(kinds as [ClientKind, ...ClientKind[]]) });

/** The client's scopes: picked from the catalog, or the integrator's one scope, said plainly. */
function ScopesField() {
  const { field } = useController({ name: "scopes" });
  const { errors } = useFormState({ name: "scopes" });
  const kind = useWatch({ name: "kind" }) as ClientKind;
  const error = get(errors, "scopes") as { message?: string } | undefined;
  return (
    <fieldset className={`form-section field${error?.message ? " field-invalid" : ""}`}>
      <legend>Scopes</legend>
      <div className="field-hint">
        Grant only what the client needs. Click a resource to toggle its whole row.
      </div>
      {kind === "integrator" ? (
        <p>
          <code>{INTEGRATOR_SCOPE}</code>
        </p>
      ) : (
        <ScopePicker value={field.value as string[]} onChange={field.onChange} />
      )}
      {error?.message ? (
        <div className="field-error" data-testid="error-scopes">
          {withLabel(error.message, "Scopes")}
        </div>
      ) : null}
    </fieldset>
  );
}

/** Registers an API client; its secret is shown once, right after. */
export function ClientCreateDialog({
  kinds,
  onClose,
}: {
  kinds: readonly ClientKind[];
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useSchemaForm<Values, TClientCreateRequest>(clientRequest(kinds), {
    defaultValues: { name: "", kind: kinds[0] ?? "admin", scopes: [] },
    // An integrator client holds exactly the integrator scope, whatever was picked before.
    toPayload: (v) => ({ ...v, scopes: v.kind === "integrator" ? [INTEGRATOR_SCOPE] : v.scopes }),
  });
  const create = useMutation(
    trpc.clients.create.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.clients.pathKey() }),
      onError: form.showProblem,
    }),
  );
  const kind = useWatch({ control: form.control, name: "kind" });
  const created = create.data;

  if (created) {
    return (
      <Dialog
        open
        wide
        title="API client created"
        onClose={onClose}
        footer={
          <button type="button" className="btn btn-primary" onClick={onClose}>
            I have stored the secret
          </button>
        }
      >
        <div className="alert alert-warn" role="status">
          Copy the client secret now. It is shown only this once and cannot be retrieved later; if it is lost,
          revoke this client and create another.
        </div>
        <dl className="secret-list">
          <dt>Client id</dt>
          <dd>
            <code data-testid="created-client-id">{created.client.clientId}</code>{" "}
            <CopyButton value={created.client.clientId} />
          </dd>
          <dt>Client secret</dt>
          <dd>
            <code className="secret" data-testid="client-secret">
              {created.clientSecret}
            </code>{" "}
            <CopyButton value={created.clientSecret} label="Copy secret" />
          </dd>
          <dt>Scopes</dt>
          <dd className="scope-list">
            {created.client.scopes.map((s) => (
              <code key={s}>{s}</code>
            ))}
          </dd>
        </dl>
        <p className="muted small">
          Get a token with <code>POST /auth/connect/token</code>, <code>grant_type=client_credentials</code>,
          this id and secret, and the scopes the call needs.
        </p>
      </Dialog>
    );
  }

  return (
    <Dialog
      open
      wide
      title="New API client"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="client-form" className="btn btn-primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create client"}
          </button>
        </>
      }
    >
      <Form
        form={form}
        id="client-form"
        onSubmit={(payload) => {
          create.reset();
          create.mutate(payload);
        }}
      >
        <div className="form-row">
          <TextField name="name" label="Name" autoFocus placeholder="Billing backend" />
          <SelectField
            name="kind"
            label="Kind"
            hint={
              kind === "integrator"
                ? `An integrator client holds only ${INTEGRATOR_SCOPE}.`
                : "admin and operational clients call the provisioning API."
            }
            options={kinds.map((k) => ({ value: k, label: k }))}
          />
        </div>
        <ScopesField />
      </Form>
    </Dialog>
  );
}
