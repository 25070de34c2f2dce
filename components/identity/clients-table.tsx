"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { INTEGRATOR_SCOPE, isValidScopePattern } from "@/server/domain/identity/scopes";
import type { ClientKind, TClientResponse } from "@/server/domain/identity/oauth-clients";
import { useTRPC } from "../shell/trpc-provider";
import { DataTable, type Column } from "../ui/data-table";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { CopyButton } from "../ui/copy-button";
import { ProblemAlert } from "../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../ui/problem";
import { formatDate, formatDateTime } from "../ui/format";
import { ScopePicker } from "./scope-picker";
import { CallbackAllowanceDialog } from "../webhooks/callback-allowance-dialog";
import "./identity.css";

/** The tenant's OAuth clients: register (secret shown once), list, revoke. */
export function ClientsTable({ kinds }: { kinds: readonly ClientKind[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.clients.list.queryOptions());
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<TClientResponse | null>(null);
  const [allowing, setAllowing] = useState<TClientResponse | null>(null);
  const revoke = useMutation(
    trpc.clients.revoke.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.clients.pathKey() });
        setRevoking(null);
      },
    }),
  );

  const columns: Column<TClientResponse>[] = [
    { key: "name", header: "Name", render: (c) => <strong>{c.name}</strong> },
    { key: "clientId", header: "Client id", render: (c) => <code className="nowrap">{c.clientId}</code> },
    { key: "kind", header: "Kind", render: (c) => <span className="badge">{c.kind}</span> },
    {
      key: "scopes",
      header: "Scopes",
      render: (c) => (
        <span className="scope-list">
          {c.scopes.slice(0, 4).map((s) => (
            <code key={s}>{s}</code>
          ))}
          {c.scopes.length > 4 ? (
            <span className="muted small" title={c.scopes.join("\n")}>
              +{c.scopes.length - 4} more
            </span>
          ) : null}
          {c.kind === "integrator" && !c.revokedAt ? (
            <button
              type="button"
              className="btn btn-small btn-ghost"
              title={`Callback scopes its webhook subscriptions may request: ${c.callbackScopeAllowance.join(", ") || "none"}`}
              onClick={() => setAllowing(c)}
            >
              Callback scopes ({c.callbackScopeAllowance.length})
            </button>
          ) : null}
        </span>
      ),
    },
    {
      key: "created",
      header: "Created",
      render: (c) => (
        <span className="nowrap" title={formatDateTime(c.createdAt)}>
          {formatDate(c.createdAt)}
        </span>
      ),
    },
    {
      key: "lastUsed",
      header: "Last used",
      render: (c) =>
        c.lastUsedAt ? (
          <span className="nowrap">{formatDateTime(c.lastUsedAt)}</span>
        ) : (
          <span className="muted">never</span>
        ),
    },
    {
      key: "status",
      header: "Status",
      render: (c) =>
        c.revokedAt ? (
          <span className="badge badge-danger" title={`Revoked ${formatDateTime(c.revokedAt)}`}>
            revoked
          </span>
        ) : (
          <span className="badge badge-ok">active</span>
        ),
    },
    {
      key: "actions",
      header: "",
      render: (c) =>
        c.revokedAt ? null : (
          <button
            type="button"
            className="btn btn-small btn-danger-ghost"
            onClick={() => {
              revoke.reset();
              setRevoking(c);
            }}
          >
            Revoke
          </button>
        ),
    },
  ];

  return (
    <>
      <div className="toolbar">
        <span className="muted">
          {list.data ? `${list.data.length} ${list.data.length === 1 ? "client" : "clients"}` : ""}
        </span>
        <span className="toolbar-spacer" />
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          New API client
        </button>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <DataTable
        caption="API clients"
        columns={columns}
        rows={list.data ?? []}
        rowKey={(c) => c.id}
        rowClassName={(c) => (c.revokedAt ? "row-deleted" : undefined)}
        loading={list.isLoading}
        empty="No API clients yet."
      />
      {creating ? <CreateClientDialog kinds={kinds} onClose={() => setCreating(false)} /> : null}
      {allowing ? <CallbackAllowanceDialog client={allowing} onClose={() => setAllowing(null)} /> : null}
      <ConfirmDialog
        open={!!revoking}
        title={revoking ? `Revoke “${revoking.name}”?` : "Revoke client"}
        confirmLabel="Revoke client"
        danger
        busy={revoke.isPending}
        problem={problemFrom(revoke.error)}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
      >
        <p>
          <code>{revoking?.clientId}</code> will stop working at once: it gets no new token, and tokens it
          already holds are refused. An integration&apos;s webhook subscriptions are disabled and their
          callback tokens refused. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}

function CreateClientDialog({ kinds, onClose }: { kinds: readonly ClientKind[]; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [kind, setKind] = useState<ClientKind>(kinds[0] ?? "admin");
  const [scopes, setScopes] = useState<string[]>([]);
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);
  const create = useMutation(
    trpc.clients.create.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.clients.pathKey() }),
    }),
  );
  const created = create.data;
  const problem = localProblem ?? problemFrom(create.error);
  const integrator = kind === "integrator";

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    const chosen = integrator ? [INTEGRATOR_SCOPE] : scopes;
    const issues = [
      ...(name.trim() ? [] : [{ path: ["name"], message: "Give the client a name." }]),
      ...(chosen.length ? [] : [{ path: ["scopes"], message: "Choose at least one scope." }]),
      ...chosen
        .filter((s) => !isValidScopePattern(s))
        .map((s) => ({ path: ["scopes"], message: `unknown scope ${s}` })),
    ];
    if (issues.length) return setLocalProblem(validationProblem(issues));
    create.mutate({ name: name.trim(), kind, scopes: chosen });
  }

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
      <ProblemAlert problem={problem} />
      <form id="client-form" className="form" onSubmit={submit} noValidate>
        <div className="form-row">
          <Field label="Name" htmlFor="client-name" error={fieldError(problem, "name")}>
            <input
              id="client-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={200}
              autoFocus
              placeholder="Billing backend"
            />
          </Field>
          <Field
            label="Kind"
            htmlFor="client-kind"
            hint={
              integrator
                ? `An integrator client holds only ${INTEGRATOR_SCOPE}.`
                : "admin and operational clients call the provisioning API."
            }
          >
            <select id="client-kind" value={kind} onChange={(e) => setKind(e.target.value as ClientKind)}>
              {kinds.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field
          label="Scopes"
          error={fieldError(problem, "scopes")}
          hint="Grant only what the client needs. Click a resource to toggle its whole row."
        >
          {integrator ? (
            <p>
              <code>{INTEGRATOR_SCOPE}</code>
            </p>
          ) : (
            <ScopePicker value={scopes} onChange={setScopes} />
          )}
        </Field>
      </form>
    </Dialog>
  );
}
