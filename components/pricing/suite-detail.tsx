"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { TSuiteMember } from "@/server/domain/pricing/suites/suite.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatCountOf, formatDateTime } from "../ui/format";
import { ProductPicker, productLabel } from "./product-picker";
import { SuiteFormDialog } from "./suite-form-dialog";
import { StatusBadge } from "./status-badge";

/** One suite: its members in sell order (up/down to reorder), adding and removing members, its plan sets. */
export function SuiteDetail({ suiteId }: { suiteId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const suite = useQuery(trpc.suites.get.queryOptions({ suiteId }));
  const planSets = useQuery(
    trpc.planSets.list.queryOptions({
      filter: `suiteId==${suiteId}`,
      sortOrder: "-revision",
      pageNumber: 1,
      pageSize: 10,
    }),
  );
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState<TSuiteMember | null>(null);
  const invalidate = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.suites.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.planSets.pathKey() });
  };
  const setMembers = useMutation(trpc.suites.setMembers.mutationOptions({ onSuccess: invalidate }));
  const removeMember = useMutation(
    trpc.suites.removeMember.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        setRemoving(null);
      },
    }),
  );

  if (suite.error) return <ProblemAlert problem={problemFrom(suite.error)} />;
  if (!suite.data) return <p className="muted">Loading…</p>;
  const s = suite.data;
  const ids = s.members.map((m) => m.productId);
  const moveMember = (index: number, delta: number) => {
    const order = [...ids];
    const [moved] = order.splice(index, 1);
    order.splice(index + delta, 0, moved);
    setMembers.mutate({ suiteId, productIds: order });
  };
  const published = planSets.data?.items.find((p) => p.status === "Published");

  return (
    <div className="pricing">
      <div className="crumbs">
        <Link href="/admin/suites">Suites</Link>
      </div>
      <div className="page-head head-row">
        <div>
          <h1>
            {s.name} {s.isImplicit ? <span className="badge badge-muted">implicit</span> : null}
          </h1>
          <p className="muted">
            <code>{s.code}</code>
            {s.description ? ` · ${s.description}` : ""}
          </p>
        </div>
        <div className="head-actions">
          <button type="button" className="btn" onClick={() => setEditing(true)}>
            Edit
          </button>
        </div>
      </div>
      {s.isImplicit ? (
        <div className="banner" role="note">
          <strong>Implicit suite.</strong> It was created when its product was priced on its own. Adding a
          second product makes it a regular suite for good.
        </div>
      ) : null}

      <section className="panel">
        <h2>Members</h2>
        <p className="muted small">
          Sell order: the first product is sold first. Removing a product takes its line items out of draft
          plan sets; a published plan set is never edited (a draft copy takes the change).
        </p>
        <ProblemAlert problem={problemFrom(setMembers.error)} onDismiss={() => setMembers.reset()} />
        {s.members.length ? (
          <ol className="member-list" data-testid="suite-members">
            {s.members.map((m, i) => (
              <li key={m.productId} data-testid="suite-member">
                <span className="member-order">{m.sortOrder}</span>
                <span className="member-name">{productLabel({ ...m, name: m.productName })}</span>
                <button
                  type="button"
                  className="btn btn-small"
                  aria-label={`Move ${m.productName} up`}
                  disabled={i === 0 || setMembers.isPending}
                  onClick={() => moveMember(i, -1)}
                >
                  ↑ Up
                </button>
                <button
                  type="button"
                  className="btn btn-small"
                  aria-label={`Move ${m.productName} down`}
                  disabled={i === s.members.length - 1 || setMembers.isPending}
                  onClick={() => moveMember(i, 1)}
                >
                  ↓ Down
                </button>
                <button
                  type="button"
                  className="btn btn-small btn-danger-ghost"
                  onClick={() => {
                    removeMember.reset();
                    setRemoving(m);
                  }}
                >
                  Remove
                </button>
              </li>
            ))}
          </ol>
        ) : (
          <p className="muted">No members yet.</p>
        )}
        <ProductPicker
          id="suite-add-member"
          exclude={ids}
          buttonLabel="Add to suite"
          onPick={(p) => setMembers.mutate({ suiteId, productIds: [...ids, p.id] })}
        />
      </section>

      <section className="panel">
        <div className="head-row">
          <h2>Plan sets</h2>
          <Link className="btn btn-small" href={`/admin/plan-sets?suiteId=${suiteId}`}>
            All revisions
          </Link>
        </div>
        {planSets.data?.items.length ? (
          <ul className="timeline">
            {planSets.data.items.map((p) => (
              <li key={p.id}>
                <Link href={`/admin/plan-sets/${p.id}`}>
                  <span className="timeline-line">
                    <strong>
                      Revision {p.revision} · {p.name}
                    </strong>
                    <StatusBadge status={p.status} />
                  </span>
                  <span className="muted small">
                    {formatCountOf(p.plans.length, "plan")} · {formatDateTime(p.revisionDate)}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No plan set yet.</p>
        )}
        {published ? null : <p className="muted small">No revision of this suite is published.</p>}
      </section>

      {editing ? <SuiteFormDialog suite={s} onClose={() => setEditing(false)} /> : null}
      <ConfirmDialog
        open={!!removing}
        title={removing ? `Remove ${removing.productName ?? "product"} from the suite?` : "Remove member"}
        confirmLabel="Remove from suite"
        danger
        busy={removeMember.isPending}
        problem={problemFrom(removeMember.error)}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && removeMember.mutate({ suiteId, productId: removing.productId })}
      >
        <ul className="summary-list">
          <li>Draft plan sets lose this product&apos;s line items.</li>
          <li>
            The published plan set is not edited: if it includes the product and there is no draft, a draft
            copy without it is created.
          </li>
          <li>Archived revisions stay as they are.</li>
        </ul>
      </ConfirmDialog>
    </div>
  );
}
