"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import {
  ZPlanSetUpdateRequest,
  pricingModes,
  type TPlanSetResponse,
} from "@/server/domain/pricing/plan-sets/plan-set.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Field } from "../ui/field";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ProblemAlert } from "../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { StatusBadge } from "./status-badge";
import { emptyPlan, formOf, requestOf, type PlanSetForm } from "./plan-set-form";
import { PlanCard, type MemberOption } from "./plan-card";
import { productLabel } from "./product-picker";
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
  const router = useRouter();
  const params = useSearchParams();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<PlanSetForm>(() => formOf(planSet));
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);
  const [saved, setSaved] = useState(false);
  const [move, setMove] = useState<Move>(null);

  const suite = useQuery(trpc.suites.get.queryOptions({ suiteId: planSet.suiteId }));
  const balances = useQuery(trpc.suites.balanceMetrics.queryOptions({ suiteId: planSet.suiteId }));
  const features = useQuery(trpc.planSets.featureOptions.queryOptions({ term: "" }));
  const timeline = useQuery(
    trpc.planSets.revisions.queryOptions({ planSetId: planSet.id, pageNumber: 1, pageSize: 50 }),
  );
  const source = timeline.data?.items.find((r) => r.id === planSet.sourcePlanSetId);
  const openDraft = timeline.data?.items.find((r) => r.status === "Draft" && r.id !== planSet.id);
  const published = timeline.data?.items.find((r) => r.status === "Published" && r.id !== planSet.id);

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.planSets.pathKey() });
  const update = useMutation(
    trpc.planSets.update.mutationOptions({
      onSuccess: async (result) => {
        await refresh();
        // docs/api.md: an edit of a published revision lands on a draft copy; go there.
        if (result.id !== planSet.id) router.push(`/admin/plan-sets/${result.id}?editedFrom=${planSet.id}`);
        else setSaved(true);
      },
    }),
  );
  const moveStatus = useMutation(
    trpc.planSets.moveStatus.mutationOptions({
      onSuccess: async () => {
        await refresh();
        setMove(null);
      },
    }),
  );
  const problem = localProblem ?? problemFrom(update.error);
  const errorOf = (path: string) => fieldError(problem, path);
  const readOnly = planSet.status === "Archived";

  const members: MemberOption[] = (suite.data?.members ?? []).map((m) => ({
    productId: m.productId,
    label: productLabel({ ...m, name: m.productName }),
  }));

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    setSaved(false);
    update.reset();
    const parsed = ZPlanSetUpdateRequest.safeParse(requestOf(form));
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    update.mutate({ planSetId: planSet.id, edit: parsed.data });
  }
  const setPlan = (i: number, plan: PlanSetForm["plans"][number]) =>
    setForm({ ...form, plans: form.plans.map((p, j) => (j === i ? plan : p)) });
  const movePlan = (i: number, delta: number) => {
    const j = i + delta;
    if (j < 0 || j >= form.plans.length) return;
    const plans = [...form.plans];
    [plans[i], plans[j]] = [plans[j], plans[i]];
    setForm({ ...form, plans });
  };

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
                <form onSubmit={submit} noValidate aria-label="Plan set">
                  <ProblemAlert problem={problem} />
                  {saved ? (
                    <p className="muted small" role="status">
                      Saved.
                    </p>
                  ) : null}
                  <fieldset disabled={readOnly}>
                    <div className="panel form">
                      <div className="grid-3">
                        <Field label="Name" htmlFor="plan-set-name" error={errorOf("name")}>
                          <input
                            id="plan-set-name"
                            value={form.name}
                            onChange={(e) => setForm({ ...form, name: e.target.value })}
                          />
                        </Field>
                        <Field
                          label="Pricing mode"
                          htmlFor="plan-set-mode"
                          hint="Every plan of a set is priced the same way."
                        >
                          <select
                            id="plan-set-mode"
                            value={form.pricingMode}
                            onChange={(e) =>
                              setForm({ ...form, pricingMode: e.target.value as PlanSetForm["pricingMode"] })
                            }
                          >
                            {pricingModes.map((m) => (
                              <option key={m} value={m}>
                                {m === "Absolute" ? "Absolute (monthly price)" : "Relative (weight)"}
                              </option>
                            ))}
                          </select>
                        </Field>
                      </div>
                      <Field
                        label="Description"
                        htmlFor="plan-set-description"
                        error={errorOf("description")}
                      >
                        <textarea
                          id="plan-set-description"
                          rows={2}
                          value={form.description}
                          onChange={(e) => setForm({ ...form, description: e.target.value })}
                        />
                      </Field>
                    </div>
                    {form.plans.map((plan, i) => (
                      <PlanCard
                        key={plan.key}
                        plan={plan}
                        index={i}
                        pricingMode={form.pricingMode}
                        members={members}
                        features={features.data ?? []}
                        balanceMetrics={balances.data ?? []}
                        onChange={(p) => setPlan(i, p)}
                        onRemove={() => setForm({ ...form, plans: form.plans.filter((_, j) => j !== i) })}
                        onMove={(delta) => movePlan(i, delta)}
                        errorOf={errorOf}
                      />
                    ))}
                    <div className="toolbar">
                      <button
                        type="button"
                        className="btn"
                        onClick={() => {
                          const plan = emptyPlan();
                          // A suite of one gets its member's line item right away.
                          if (members.length === 1)
                            plan.lineItems = [
                              {
                                key: `${plan.key}-li`,
                                productId: members[0].productId,
                                included: true,
                                featureValues: [],
                              },
                            ];
                          setForm({ ...form, plans: [...form.plans, plan] });
                        }}
                      >
                        Add plan
                      </button>
                      <span className="toolbar-spacer" />
                      <button type="submit" className="btn btn-primary" disabled={update.isPending}>
                        {update.isPending
                          ? "Saving…"
                          : planSet.status === "Published"
                            ? "Save as draft copy"
                            : "Save"}
                      </button>
                    </div>
                  </fieldset>
                </form>

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
