"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import type { TPlanSetResponse } from "@/server/domain/pricing/plan-sets/plan-set.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { StatusBadge } from "./status-badge";
import { PlanSetPlans } from "./plan-set-plans";
import { Tabs } from "../ui/tabs";
import { AuditHistory } from "../audit/audit-history";

type Move = { status: "Published" | "Archived"; title: string; body: string } | null;

/** One plan-set revision: banners that say what an edit will do, the plan editor, status moves, the suite's timeline and the revision's history. */
export function PlanSetEditor({ planSetId }: { planSetId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.planSets.get.queryOptions({ planSetId }));
  if (query.error) return <ProblemAlert problem={problemFrom(query.error)} />;
  if (!query.data) return <p className="muted">Loading…</p>;
  return <PlanSetScreen key={`${query.data.id}:${query.data.status}`} planSet={query.data} />;
}

function PlanSetScreen({ planSet }: { planSet: TPlanSetResponse }) {
  const trpc = useTRPC();
  const params = useSearchParams();
  const queryClient = useQueryClient();
  const [move, setMove] = useState<Move>(null);

  const timeline = useQuery(
    trpc.planSets.revisions.queryOptions({ planSetId: planSet.id, pageNumber: 1, pageSize: 50 }),
  );
  const source = timeline.data?.items.find((r) => r.id === planSet.sourcePlanSetId);
  const openDraft = timeline.data?.items.find((r) => r.status === "Draft" && r.id !== planSet.id);
  const published = timeline.data?.items.find((r) => r.status === "Published" && r.id !== planSet.id);

  const moveStatus = useMutation(
    trpc.planSets.moveStatus.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.planSets.pathKey() });
        setMove(null);
      },
    }),
  );
  const readOnly = planSet.status === "Archived";

  return (
    <div className="pricing">
      <div className="crumbs">
        <Link href="/admin/plan-sets">Plan sets</Link> ·{" "}
        <Link href={`/admin/suites/${planSet.suiteId}`}>{planSet.suiteName}</Link>
        {planSet.suiteIsImplicit ? <span className="muted"> (implicit suite)</span> : null}
      </div>
      <div className="page-head head-row">
        <div>
          <h1>
            {planSet.name} <StatusBadge status={planSet.status} />
          </h1>
          <p className="muted">
            Revision {planSet.revision} of {planSet.suiteName} · started{" "}
            {formatDateTime(planSet.revisionDate)}
            {planSet.publishedAt ? ` · published ${formatDateTime(planSet.publishedAt)}` : ""}
            {planSet.archivedAt ? ` · archived ${formatDateTime(planSet.archivedAt)}` : ""}
          </p>
        </div>
        <div className="head-actions">
          {planSet.status === "Draft" ? (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => {
                moveStatus.reset();
                setMove({
                  status: "Published",
                  title: `Publish revision ${planSet.revision}?`,
                  body: published
                    ? `Revision ${published.revision} (“${published.name}”) is published now; publishing this one archives it.`
                    : "This becomes the suite's published plan set.",
                });
              }}
            >
              Publish
            </button>
          ) : null}
          {planSet.status !== "Archived" ? (
            <button
              type="button"
              className="btn btn-danger-ghost"
              onClick={() => {
                moveStatus.reset();
                setMove({
                  status: "Archived",
                  title: `Archive revision ${planSet.revision}?`,
                  body:
                    planSet.status === "Published"
                      ? "The suite will have no published plan set until another revision is published. Archived revisions are read-only and cannot come back."
                      : "The draft is kept in the timeline, read-only; it cannot come back.",
                });
              }}
            >
              Archive
            </button>
          ) : null}
        </div>
      </div>

      {params.get("editedFrom") && planSet.status === "Draft" ? (
        <div className="banner banner-ok" role="status" data-testid="draft-copy-banner">
          <strong>Saved as a draft copy.</strong> Published revisions are never edited: your change is in this
          draft (revision {planSet.revision}). The published revision is unchanged.
          <Link href={`/admin/plan-sets/${params.get("editedFrom")}`}>View the published revision</Link>
        </div>
      ) : planSet.status === "Draft" && planSet.sourcePlanSetId ? (
        <div className="banner" role="note" data-testid="draft-copy-banner">
          <strong>Draft copy</strong> of revision {source?.revision ?? "?"}
          {source ? ` (${source.status.toLowerCase()})` : ""}. Publish it to replace the published plans.
          <Link href={`/admin/plan-sets/${planSet.sourcePlanSetId}`}>Open the source revision</Link>
        </div>
      ) : null}
      {planSet.status === "Published" ? (
        <div className="banner banner-warn" role="note" data-testid="published-banner">
          <strong>Published.</strong> Saving an edit does not change this revision: it creates a draft copy
          that you publish when ready.
          {openDraft ? (
            <Link href={`/admin/plan-sets/${openDraft.id}`}>Open draft revision {openDraft.revision}</Link>
          ) : null}
        </div>
      ) : null}
      {readOnly ? (
        <div className="banner" role="note">
          <strong>Archived.</strong> This revision is read-only.
        </div>
      ) : null}

      <Tabs
        label="Plan set"
        tabs={[
          {
            id: "plans",
            label: "Plans",
            render: () => (
              <div className="editor-layout">
                <PlanSetPlans planSet={planSet} />

                <aside className="panel" aria-label="Revision timeline">
                  <h2>Revisions</h2>
                  <ol className="timeline" data-testid="revision-timeline">
                    {(timeline.data?.items ?? []).map((r) => (
                      <li key={r.id}>
                        {r.id === planSet.id ? (
                          <div className="timeline-current" aria-current="page">
                            <span className="timeline-line">
                              <strong>Revision {r.revision}</strong>
                              <StatusBadge status={r.status} />
                            </span>
                            <span className="muted small">
                              {r.name} · {formatDateTime(r.revisionDate)}
                            </span>
                          </div>
                        ) : (
                          <Link href={`/admin/plan-sets/${r.id}`}>
                            <span className="timeline-line">
                              <strong>Revision {r.revision}</strong>
                              <StatusBadge status={r.status} />
                            </span>
                            <span className="muted small">
                              {r.name} · {formatDateTime(r.revisionDate)}
                            </span>
                          </Link>
                        )}
                      </li>
                    ))}
                  </ol>
                </aside>
              </div>
            ),
          },
          { id: "history", label: "History", render: () => <AuditHistory entityId={planSet.id} /> },
        ]}
      />

      <ConfirmDialog
        open={!!move}
        title={move?.title ?? ""}
        confirmLabel={move?.status === "Published" ? "Publish" : "Archive"}
        danger={move?.status === "Archived"}
        busy={moveStatus.isPending}
        problem={problemFrom(moveStatus.error)}
        onCancel={() => setMove(null)}
        onConfirm={() => move && moveStatus.mutate({ planSetId: planSet.id, status: move.status })}
      >
        <p>{move?.body}</p>
      </ConfirmDialog>
    </div>
  );
}
