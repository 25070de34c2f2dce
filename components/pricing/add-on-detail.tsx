"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Fragment, useState, type FormEvent } from "react";
import {
  ZAddOnUpdateRequest,
  addOnOperations,
  type TAddOnResponse,
} from "@/server/domain/pricing/add-ons/add-on.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Field } from "../ui/field";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ProblemAlert } from "../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { StatusBadge } from "./status-badge";
import { FeatureValueInput } from "./feature-value-row";
import { TierTable } from "./tier-table";
import { newKey, type TierForm } from "./plan-set-form";

type ValueForm = {
  key: string;
  featureCode: string;
  operation: string;
  value: string;
  planTargets: string;
  usageTiers: TierForm[];
};

const text = (n: number | null) => (n === null ? "" : String(n));
const num = (v: string) => (v.trim() === "" ? null : Number(v));

function valuesOf(addOn: TAddOnResponse): ValueForm[] {
  return addOn.featureValues.map((v) => ({
    key: newKey(),
    featureCode: v.featureCode,
    operation: v.operation,
    value: v.value ?? "",
    planTargets: v.planTargets.join(", "),
    usageTiers: v.usageTiers.map((t) => ({
      key: newKey(),
      name: t.name,
      startUsage: text(t.startUsage),
      endUsage: text(t.endUsage),
      startPercentage: text(t.startPercentage),
      endPercentage: text(t.endPercentage),
      baseCredits: text(t.baseCredits),
      creditsPerUnitOfConsumption: text(t.creditsPerUnitOfConsumption),
      quotaUsageLevel: t.quotaUsageLevel,
      quotaUsagePolicy: t.quotaUsagePolicy,
      fundingBalanceMetric: t.fundingBalanceMetric,
    })),
  }));
}

/** One add-on: what it grants, how its values combine with the plan's, and its archive/delete with references shown first. */
export function AddOnDetail({ addOnId }: { addOnId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.addOns.get.queryOptions({ addOnId }));
  if (query.error) return <ProblemAlert problem={problemFrom(query.error)} />;
  if (!query.data) return <p className="muted">Loading…</p>;
  return <AddOnScreen key={`${query.data.id}:${query.data.updatedAt}`} addOn={query.data} />;
}

function AddOnScreen({ addOn }: { addOn: TAddOnResponse }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [code, setCode] = useState(addOn.code);
  const [name, setName] = useState(addOn.name);
  const [description, setDescription] = useState(addOn.description);
  const [values, setValues] = useState<ValueForm[]>(() => valuesOf(addOn));
  const [newFeature, setNewFeature] = useState("");
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);
  const [action, setAction] = useState<"archive" | "delete" | null>(null);
  const features = useQuery(trpc.planSets.featureOptions.queryOptions({ term: "" }));
  const balances = useQuery(trpc.suites.balanceMetrics.queryOptions({ suiteId: addOn.suiteId }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.addOns.pathKey() });
  const update = useMutation(trpc.addOns.update.mutationOptions({ onSuccess: refresh }));
  const addFeature = useMutation(trpc.addOns.addFeature.mutationOptions({ onSuccess: refresh }));
  const archive = useMutation(
    trpc.addOns.archive.mutationOptions({
      onSuccess: async () => {
        await refresh();
        setAction(null);
      },
    }),
  );
  const remove = useMutation(
    trpc.addOns.delete.mutationOptions({
      onSuccess: async () => {
        await refresh();
        router.push("/admin/add-ons");
      },
    }),
  );
  const problem = localProblem ?? problemFrom(update.error) ?? problemFrom(addFeature.error);
  const readOnly = addOn.status === "Archived";
  const refs = addOn.referencedBy ?? { entitlements: 0, offers: 0 };
  const deletable = addOn.status === "Draft" && refs.entitlements === 0 && refs.offers === 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    update.reset();
    const parsed = ZAddOnUpdateRequest.safeParse({
      code,
      name,
      description,
      featureCatalogIds: addOn.features.map((f) => f.featureCatalogId),
      featureValues: values.map((v) => ({
        featureCode: v.featureCode,
        operation: v.operation,
        value: v.operation === "Tiered" || v.value === "" ? null : v.value,
        planTargets: v.planTargets
          .split(",")
          .map((t) => t.trim())
          .filter(Boolean),
        usageTiers:
          v.operation === "Tiered"
            ? v.usageTiers.map((t) => ({
                name: t.name,
                startUsage: num(t.startUsage) ?? 0,
                endUsage: num(t.endUsage),
                startPercentage: num(t.startPercentage) ?? 0,
                endPercentage: num(t.endPercentage) ?? 0,
                baseCredits: num(t.baseCredits) ?? 0,
                creditsPerUnitOfConsumption: num(t.creditsPerUnitOfConsumption) ?? 0,
                quotaUsageLevel: t.quotaUsageLevel,
                quotaUsagePolicy: t.quotaUsagePolicy,
                fundingBalanceMetric: t.fundingBalanceMetric,
              }))
            : [],
      })),
    });
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    update.mutate({ addOnId: addOn.id, edit: parsed.data });
  }
  const setValue = (i: number, patch: Partial<ValueForm>) =>
    setValues(values.map((v, j) => (j === i ? { ...v, ...patch } : v)));
  const errorAt = (i: number, field: string) => fieldError(problem, `featureValues.${i}.${field}`);

  return (
    <div className="pricing">
      <div className="crumbs">
        <Link href="/admin/add-ons">Add-ons</Link> ·{" "}
        <Link href={`/admin/suites/${addOn.suiteId}`}>{addOn.suiteName}</Link>
      </div>
      <div className="page-head head-row">
        <div>
          <h1>
            {addOn.name} <StatusBadge status={addOn.status} />
          </h1>
          <p className="muted">
            <code>{addOn.code}</code> · add-on of {addOn.suiteName}
            {addOn.archivedAt ? ` · archived ${formatDateTime(addOn.archivedAt)}` : ""}
          </p>
        </div>
        <div className="head-actions">
          {readOnly ? null : (
            <button
              type="button"
              className="btn"
              onClick={() => {
                archive.reset();
                setAction("archive");
              }}
            >
              Archive
            </button>
          )}
          {readOnly ? null : (
            <button
              type="button"
              className="btn btn-danger-ghost"
              onClick={() => {
                remove.reset();
                archive.reset();
                setAction("delete");
              }}
            >
              Delete
            </button>
          )}
        </div>
      </div>
      <div className="banner" role="note" data-testid="add-on-references">
        <strong>Referenced by</strong> {refs.entitlements} entitlement(s) and {refs.offers} offer(s) holding a
        grant (revoked and expired grants included).
      </div>
      {readOnly ? (
        <div className="banner" role="note" data-testid="archived-banner">
          <strong>Archived.</strong> This add-on is read-only and cannot be deleted: existing grants stay, and
          so does their history.
        </div>
      ) : null}

      <form onSubmit={submit} noValidate aria-label="Add-on">
        <ProblemAlert problem={problem} />
        <fieldset disabled={readOnly}>
          <div className="panel form">
            <div className="grid-3">
              <Field label="Name" htmlFor="add-on-edit-name" error={fieldError(problem, "name")}>
                <input id="add-on-edit-name" value={name} onChange={(e) => setName(e.target.value)} />
              </Field>
              <Field label="Code" htmlFor="add-on-edit-code" error={fieldError(problem, "code")}>
                <input id="add-on-edit-code" value={code} onChange={(e) => setCode(e.target.value)} />
              </Field>
            </div>
            <Field label="Description" htmlFor="add-on-edit-description">
              <textarea
                id="add-on-edit-description"
                rows={2}
                value={description}
                onChange={(e) => setDescription(e.target.value)}
              />
            </Field>
          </div>

          <section className="panel">
            <h2>Features granted</h2>
            {addOn.features.length ? (
              <ul className="chips" data-testid="add-on-features">
                {addOn.features.map((f) => (
                  <li key={f.featureCatalogId} className="chip">
                    {f.name ?? "Deleted feature"} <code>{f.featureCode}</code>
                    {f.isDeleted ? " (deleted)" : ""}&nbsp;
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">No features yet.</p>
            )}
            {readOnly ? null : (
              <div className="inline-add">
                <select
                  aria-label="Feature to grant"
                  value={newFeature}
                  onChange={(e) => setNewFeature(e.target.value)}
                >
                  <option value="">Choose a feature</option>
                  {(features.data ?? [])
                    .filter((f) => !addOn.features.some((g) => g.featureCatalogId === f.id))
                    .map((f) => (
                      <option key={f.id} value={f.id}>
                        {f.name} ({f.featureCode})
                      </option>
                    ))}
                </select>
                <button
                  type="button"
                  className="btn btn-small"
                  disabled={!newFeature || addFeature.isPending}
                  onClick={() => addFeature.mutate({ addOnId: addOn.id, featureCatalogId: newFeature })}
                >
                  Grant feature
                </button>
              </div>
            )}
          </section>

          <section className="panel">
            <h2>Feature values</h2>
            <p className="muted small">
              Replace: the add-on&apos;s value replaces the plan&apos;s. Add: a number added to the
              plan&apos;s. Tiered: the add-on&apos;s tiers replace the plan&apos;s. Plan targets are plan
              names; empty applies to every plan.
            </p>
            {values.length ? (
              <table className="value-table" aria-label="Feature values">
                <thead>
                  <tr>
                    <th>Feature</th>
                    <th>Operation</th>
                    <th>Value</th>
                    <th>Plan targets</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {values.map((v, i) => {
                    const feature = features.data?.find((f) => f.featureCode === v.featureCode);
                    const errors = ["featureCode", "operation", "value", "planTargets", "usageTiers"]
                      .map((f) => errorAt(i, f))
                      .filter(Boolean);
                    return (
                      <Fragment key={v.key}>
                        <tr data-testid="add-on-value-row">
                          <td>
                            <select
                              aria-label="Feature"
                              value={v.featureCode}
                              onChange={(e) => setValue(i, { featureCode: e.target.value, value: "" })}
                            >
                              {feature ? null : <option value={v.featureCode}>{v.featureCode}</option>}
                              {(features.data ?? []).map((f) => (
                                <option key={f.id} value={f.featureCode}>
                                  {f.name} ({f.featureCode})
                                </option>
                              ))}
                            </select>
                          </td>
                          <td>
                            <select
                              aria-label="Operation"
                              value={v.operation}
                              onChange={(e) => setValue(i, { operation: e.target.value })}
                            >
                              {addOnOperations.map((o) => (
                                <option key={o} value={o}>
                                  {o}
                                </option>
                              ))}
                            </select>
                          </td>
                          <td>
                            {v.operation === "Tiered" ? (
                              <span className="muted small">tiers below</span>
                            ) : (
                              <FeatureValueInput
                                feature={feature}
                                value={v.value}
                                onChange={(value) => setValue(i, { value })}
                                label={`Value of ${feature?.name ?? v.featureCode}`}
                              />
                            )}
                          </td>
                          <td>
                            <input
                              aria-label="Plan targets"
                              value={v.planTargets}
                              onChange={(e) => setValue(i, { planTargets: e.target.value })}
                              placeholder="every plan"
                            />
                          </td>
                          <td>
                            <button
                              type="button"
                              className="btn-icon"
                              aria-label="Remove value"
                              onClick={() => setValues(values.filter((_, j) => j !== i))}
                            >
                              ×
                            </button>
                          </td>
                        </tr>
                        {errors.length ? (
                          <tr>
                            <td colSpan={5} className="field-error">
                              {errors.join(" ")}
                            </td>
                          </tr>
                        ) : null}
                        {v.operation === "Tiered" ? (
                          <tr className="tier-row">
                            <td colSpan={5}>
                              <TierTable
                                label={`Tiers of ${feature?.name ?? v.featureCode}`}
                                tiers={v.usageTiers}
                                onChange={(usageTiers) => setValue(i, { usageTiers })}
                                percentages={false}
                                balanceMetrics={balances.data ?? []}
                                errorOf={(path) => (path ? errorAt(i, `usageTiers.${path}`) : undefined)}
                              />
                            </td>
                          </tr>
                        ) : null}
                      </Fragment>
                    );
                  })}
                </tbody>
              </table>
            ) : (
              <p className="muted">No feature values: the add-on only switches its features on.</p>
            )}
            <button
              type="button"
              className="btn btn-small"
              disabled={!features.data?.length}
              onClick={() =>
                setValues([
                  ...values,
                  {
                    key: newKey(),
                    featureCode: features.data?.[0]?.featureCode ?? "",
                    operation: "Replace",
                    value: "",
                    planTargets: "",
                    usageTiers: [],
                  },
                ])
              }
            >
              Add feature value
            </button>
          </section>
          <div className="toolbar">
            <span className="toolbar-spacer" />
            <button type="submit" className="btn btn-primary" disabled={update.isPending}>
              {update.isPending ? "Saving…" : "Save"}
            </button>
          </div>
        </fieldset>
      </form>

      <ConfirmDialog
        open={action === "archive"}
        title={`Archive “${addOn.name}”?`}
        confirmLabel="Archive add-on"
        busy={archive.isPending}
        problem={problemFrom(archive.error)}
        onCancel={() => setAction(null)}
        onConfirm={() => archive.mutate({ addOnId: addOn.id })}
      >
        <p data-testid="archive-references">
          Held by {refs.entitlements} entitlement(s) and {refs.offers} offer(s). Their grants stay; the add-on
          becomes read-only and cannot be granted anew.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={action === "delete"}
        title={`Delete “${addOn.name}”?`}
        confirmLabel={deletable ? "Delete add-on" : "Archive instead"}
        danger={deletable}
        busy={remove.isPending || archive.isPending}
        problem={problemFrom(remove.error) ?? problemFrom(archive.error)}
        onCancel={() => setAction(null)}
        onConfirm={() =>
          deletable ? remove.mutate({ addOnId: addOn.id }) : archive.mutate({ addOnId: addOn.id })
        }
      >
        <p data-testid="delete-references">
          Referenced by {refs.entitlements} entitlement(s) and {refs.offers} offer(s).{" "}
          {deletable
            ? "No grant exists: the add-on is removed for good."
            : "Grants of it exist (revoked and expired ones count), so it cannot be deleted: archive it instead."}
        </p>
      </ConfirmDialog>
    </div>
  );
}
