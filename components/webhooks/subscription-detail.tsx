"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "../shell/trpc-provider";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { Patterns, StateBadge } from "./webhook-badges";
import { SubscriptionFormDialog } from "./subscription-form-dialog";
import { TestFireDialog } from "./test-fire-dialog";
import { RotateSecretDialog } from "./rotate-secret-dialog";
import { DeliveriesTable } from "./deliveries-table";
import { CaptureViewer } from "./capture-viewer";
import { Tabs } from "../ui/tabs";
import { AuditHistory } from "../audit/audit-history";

type Dialog = "edit" | "test-fire" | "rotate" | "delete" | null;

/** One subscription: state, patterns, filters, every action of docs/api.md's state table, its deliveries and history. */
export function SubscriptionDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [dialog, setDialog] = useState<Dialog>(null);
  const query = useQuery(trpc.webhooks.get.queryOptions({ id }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
  const options = { onSuccess: refresh };
  const verify = useMutation(trpc.webhooks.verify.mutationOptions(options));
  const enable = useMutation(trpc.webhooks.enable.mutationOptions(options));
  const disable = useMutation(trpc.webhooks.disable.mutationOptions(options));
  const suspend = useMutation(trpc.webhooks.suspend.mutationOptions(options));
  const resume = useMutation(trpc.webhooks.resume.mutationOptions(options));
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: async () => {
        await refresh();
        router.push("/admin/webhooks");
      },
    }),
  );
  const actions = [verify, enable, disable, suspend, resume];
  const actionError = actions.map((a) => a.error).find(Boolean);
  const busy = actions.some((a) => a.isPending);

  if (query.error) return <ProblemAlert problem={problemFrom(query.error)} />;
  const sub = query.data;
  if (!sub) return <p className="muted">Loading…</p>;
  const http = sub.targetKind === "Http";
  const act = (m: (typeof actions)[number]) => {
    actions.forEach((a) => a.reset());
    m.mutate({ id });
  };
  const filters = sub.filters;

  return (
    <>
      <div className="crumbs">
        <Link href="/admin/webhooks">Webhooks</Link> /
      </div>
      <div className="detail-head">
        <div>
          <h1>{sub.displayName}</h1>
          <div className="chips">
            <span className="badge">{sub.targetKind}</span>
            <StateBadge state={sub.state} />
            <span className="badge badge-muted">created via {sub.createdVia}</span>
          </div>
        </div>
        <span className="row-actions">
          {http && sub.state !== "Suspended" ? (
            <button type="button" className="btn" disabled={busy} onClick={() => act(verify)}>
              {verify.isPending ? "Verifying…" : "Verify"}
            </button>
          ) : null}
          {sub.state === "Disabled" ? (
            <button type="button" className="btn" disabled={busy} onClick={() => act(enable)}>
              Enable
            </button>
          ) : null}
          {sub.state === "Active" ? (
            <button type="button" className="btn" disabled={busy} onClick={() => act(disable)}>
              Disable
            </button>
          ) : null}
          {sub.state === "Suspended" ? (
            <button type="button" className="btn" disabled={busy} onClick={() => act(resume)}>
              Resume
            </button>
          ) : (
            <button type="button" className="btn" disabled={busy} onClick={() => act(suspend)}>
              Suspend
            </button>
          )}
          <button
            type="button"
            className="btn"
            disabled={sub.state !== "Active"}
            title={sub.state !== "Active" ? "Test-fire needs an Active subscription" : undefined}
            onClick={() => setDialog("test-fire")}
          >
            Test-fire
          </button>
          {http ? (
            <button type="button" className="btn" onClick={() => setDialog("rotate")}>
              Rotate secret
            </button>
          ) : null}
          <button type="button" className="btn" onClick={() => setDialog("edit")}>
            Edit
          </button>
          <button
            type="button"
            className="btn btn-danger-ghost"
            onClick={() => {
              remove.reset();
              setDialog("delete");
            }}
          >
            Delete
          </button>
        </span>
      </div>
      <ProblemAlert problem={problemFrom(actionError)} />
      {http && sub.lastVerificationError ? (
        <div className="alert alert-warn" role="status" data-testid="verification-error">
          Last verification failed: {sub.lastVerificationError}
        </div>
      ) : null}
      {sub.stateReason ? (
        <div className="alert alert-warn" role="status" data-testid="state-reason">
          {sub.stateReason}
        </div>
      ) : null}

      <Tabs
        label="Subscription"
        tabs={[
          {
            id: "details",
            label: "Details",
            render: () => (
              <>
                <section className="panel" aria-label="Details">
                  <dl className="facts">
                    <div>
                      <dt>Endpoint</dt>
                      <dd>
                        {sub.url ? (
                          <code className="small">{sub.url}</code>
                        ) : (
                          <span className="muted">none (capture)</span>
                        )}
                      </dd>
                    </div>
                    <div>
                      <dt>Event types</dt>
                      <dd>
                        <Patterns patterns={sub.eventTypePatterns} />
                      </dd>
                    </div>
                    <div>
                      <dt>Entity kinds</dt>
                      <dd>{filters?.entityKinds?.join(", ") || <span className="muted">any</span>}</dd>
                    </div>
                    <div>
                      <dt>Severities</dt>
                      <dd>{filters?.severities?.join(", ") || <span className="muted">any</span>}</dd>
                    </div>
                    <div>
                      <dt>Attribute equality</dt>
                      <dd>
                        {Object.keys(filters?.attributeEquality ?? {}).length ? (
                          Object.entries(filters!.attributeEquality!).map(([k, v]) => (
                            <div key={k}>
                              <code>{k}</code> = <code>{v}</code>
                            </div>
                          ))
                        ) : (
                          <span className="muted">none</span>
                        )}
                      </dd>
                    </div>
                    {http ? (
                      <div>
                        <dt>Callback scopes</dt>
                        <dd>
                          {sub.callbackScopes.length ? (
                            sub.callbackScopes.map((s) => (
                              <div key={s}>
                                <code>{s}</code>
                              </div>
                            ))
                          ) : (
                            <span className="muted">none</span>
                          )}
                        </dd>
                      </div>
                    ) : null}
                    {http ? (
                      <div>
                        <dt>Last verification</dt>
                        <dd>{formatDateTime(sub.lastVerificationAt)}</dd>
                      </div>
                    ) : null}
                    {http ? (
                      <div>
                        <dt>Secret rotated</dt>
                        <dd>
                          {formatDateTime(sub.secretRotatedAt)}
                          {sub.previousSecretExpiresAt ? (
                            <div className="muted small">
                              previous secret signs until {formatDateTime(sub.previousSecretExpiresAt)}
                            </div>
                          ) : null}
                        </dd>
                      </div>
                    ) : null}
                    <div>
                      <dt>Revision</dt>
                      <dd>
                        {sub.revisionNumber} · {formatDateTime(sub.updatedAt)}
                      </dd>
                    </div>
                  </dl>
                </section>

                {http ? (
                  <section className="panel" aria-label="Deliveries">
                    <div className="panel-head">
                      <h2>Deliveries</h2>
                    </div>
                    <DeliveriesTable subscriptionId={id} />
                  </section>
                ) : (
                  <CaptureViewer subscriptionId={id} />
                )}
              </>
            ),
          },
          {
            id: "history",
            label: "History",
            render: () => <AuditHistory entityKind="webhookSubscription" entityId={sub.id} />,
          },
        ]}
      />

      {dialog === "edit" ? (
        <SubscriptionFormDialog subscription={sub} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === "test-fire" ? <TestFireDialog subscription={sub} onClose={() => setDialog(null)} /> : null}
      {dialog === "rotate" ? <RotateSecretDialog subscription={sub} onClose={() => setDialog(null)} /> : null}
      <ConfirmDialog
        open={dialog === "delete"}
        title={`Delete subscription “${sub.displayName}”?`}
        confirmLabel="Delete subscription"
        danger
        busy={remove.isPending}
        problem={problemFrom(remove.error)}
        onCancel={() => setDialog(null)}
        onConfirm={() => remove.mutate({ id })}
      >
        <p>
          Its pending deliveries are dropped and its delivery history{http ? "" : " and captured events"} go
          with it.
        </p>
      </ConfirmDialog>
    </>
  );
}
