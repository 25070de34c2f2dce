"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { ClientKind, TClientResponse } from "@/server/domain/identity/oauth-clients";
import { useTRPC } from "../shell/trpc-provider";
import { DataTable, type Column } from "../ui/data-table";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDate, formatDateTime } from "../ui/format";
import { ClientCreateDialog } from "./client-create-dialog";
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
      {creating ? <ClientCreateDialog kinds={kinds} onClose={() => setCreating(false)} /> : null}
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
